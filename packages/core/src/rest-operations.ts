import type * as z from 'zod/v4/core';
import { markOutcome, RequestValidationError } from './errors/catalog-error.js';
import { parseResponse } from './http/response-body.js';
import { callRest, type RestRequest, type RestResponse } from './http/rest-call.js';
import type { RequestOptions, ServiceConnection } from './http/service-connection.js';
import {
  type Collection,
  CollectionIdSchema,
  CollectionSchema,
  type CollectionUpdate,
  CollectionUpdateSchema,
} from './schemas/collections.js';
import {
  type Conversation,
  type ConversationCreate,
  ConversationCreateSchema,
  ConversationSchema,
} from './schemas/conversations.js';
import {
  type WebsiteSearchParams,
  WebsiteSearchParamsSchema,
  type WebsiteSearchResponse,
  WebsiteSearchResponseSchema,
} from './schemas/websites.js';
import { checkRequest, validateRequest } from './validation/request.js';

/**
 * Reads the 2xx answer to a change: one not matching the contract (`{"ok":true}`, empty) is a
 * ProtocolError with `outcomeUnknown: true`, as the change is in place and a retry would repeat it.
 */
export function parseChangeAnswer<S extends z.$ZodType>(
  schema: S,
  response: RestResponse,
  operation: string,
): z.output<S> {
  try {
    return parseResponse(schema, response.data, operation, response.status);
  } catch (error) {
    markOutcome(error, true);
    throw error;
  }
}

/** Sends a validated request and reads its answer: a change's as {@link parseChangeAnswer}. */
async function call<S extends z.$ZodType>(
  connection: ServiceConnection,
  request: RestRequest,
  schema: S,
  options: RequestOptions | undefined,
): Promise<z.output<S>> {
  const response = await callRest(connection, request, options);
  return request.retry === 'once'
    ? parseChangeAnswer(schema, response, request.operation)
    : parseResponse(schema, response.data, request.operation, response.status);
}

/** `GET /v1/websites/search`, validated first; safe to repeat. */
export async function searchWebsites(
  connection: ServiceConnection,
  params: WebsiteSearchParams,
  options?: RequestOptions,
): Promise<WebsiteSearchResponse> {
  const operation = 'websites.search';
  const valid = validateRequest(WebsiteSearchParamsSchema, params, operation);
  // encodeURIComponent, not URLSearchParams: the same values, far less code per call.
  let query = `query=${encodeURIComponent(valid.query)}`;
  if (valid.limit !== undefined) query += `&limit=${valid.limit}`;
  for (const category of valid.category_ids ?? []) {
    query += `&category_ids=${encodeURIComponent(category)}`;
  }
  if (valid.country !== undefined) query += `&country=${encodeURIComponent(valid.country)}`;
  const path = '/v1/websites/search';
  const request = { operation, method: 'GET', path, query, retry: 'idempotent' } as const;
  return call(connection, request, WebsiteSearchResponseSchema, options);
}

/** `PATCH /v1/collections/{collection_id}` with only the given fields; never resent once it may have arrived. */
export async function updateCollection(
  connection: ServiceConnection,
  collectionId: string,
  body: CollectionUpdate,
  options?: RequestOptions,
): Promise<Collection> {
  const operation = 'collections.update';
  // Both checked before throwing, so one error names every bad field.
  const id = checkRequest(CollectionIdSchema, collectionId, 'collection_id');
  const valid = checkRequest(CollectionUpdateSchema, body);
  if (!id.ok || !valid.ok) {
    throw new RequestValidationError(operation, [
      ...(id.ok ? [] : id.issues),
      ...(valid.ok ? [] : valid.issues),
    ]);
  }
  const path = `/v1/collections/${encodeURIComponent(id.data)}`;
  const request = { operation, method: 'PATCH', path, body: valid.data, retry: 'once' } as const;
  return call(connection, request, CollectionSchema, options);
}

/** `POST /v1/conversations`; not idempotent, so never resent once it may have arrived. */
export async function createConversation(
  connection: ServiceConnection,
  body: ConversationCreate = {},
  options?: RequestOptions,
): Promise<Conversation> {
  const operation = 'conversations.create';
  const valid = validateRequest(ConversationCreateSchema, body, operation, 'body');
  const path = '/v1/conversations';
  const request = { operation, method: 'POST', path, body: valid, retry: 'once' } as const;
  return call(connection, request, ConversationSchema, options);
}
