import { parseResponse } from '../http/response-body.js';
import type { RestRequest, RestResponse } from '../http/rest-call.js';
import type { RequestOptions } from '../http/service-connection.js';
import { parseChangeAnswer } from '../rest-operations.js';
import {
  ConversationIdSchema,
  ConversationTokenSchema,
  TokenMintRequestSchema,
  type Turn,
  TurnRequestSchema,
  TurnSchema,
} from '../schemas/conversations.js';
import { validateRequest } from '../validation/request.js';
import { requireToken } from '../validation/text.js';
import type { MintedToken, TokenMinter } from './token-source.js';

/** What the HTTP helpers need of a `CatalogClient`: its low-level REST call. */
export interface RestCaller {
  request(request: RestRequest, options?: RequestOptions): Promise<RestResponse>;
}

/**
 * The life asked for when none is given, always sent: a service whose own default is shorter
 * would grant less than the client counts on, which a local clock behind would hide.
 */
const DEFAULT_TTL_SECONDS = 1800;

/** Options of {@link createHttpTokenMinter}. */
export interface HttpTokenMinterOptions {
  /** A `CatalogClient` configured with the API key and base URL. */
  client: RestCaller;
  /** The conversation the tokens are for (from `client.conversations.create`). */
  conversationId: string;
  /** Token lifetime in seconds, 60 to 7200; default 1800 (always sent to the service). */
  ttlSeconds?: number;
}

/**
 * A {@link TokenMinter} for SERVER-SIDE use: `POST /v1/conversations/{id}/tokens` with the
 * API key (an assumed endpoint, see docs/service-contract.md); returns the token, its expiry
 * and the answer's `Date` (for clock skew). Never ship the API key to a browser: mint there
 * through your own endpoint.
 */
export function createHttpTokenMinter(options: HttpTokenMinterOptions): TokenMinter {
  const { client, conversationId, ttlSeconds } = options;
  const operation = 'conversations.mintToken';
  const id = validateRequest(ConversationIdSchema, conversationId, operation, 'conversationId');
  const body = validateRequest(
    TokenMintRequestSchema,
    { ttl_seconds: ttlSeconds ?? DEFAULT_TTL_SECONDS },
    operation,
  );
  const ttl = body.ttl_seconds ?? DEFAULT_TTL_SECONDS;
  return async ({ signal }): Promise<MintedToken> => {
    const response = await client.request(
      {
        operation,
        method: 'POST',
        path: `/v1/conversations/${encodeURIComponent(id)}/tokens`,
        body,
        // Each mint creates a token: repeat only when the request provably never arrived.
        retry: 'once',
      },
      { signal },
    );
    // A 2xx to a mint created a token, even when its answer cannot be read.
    const minted = parseChangeAnswer(ConversationTokenSchema, response, operation);
    const serverDate = response.headers.get('date') ?? undefined;
    return { token: minted.token, expiresAt: minted.expires_at, serverDate, ttlSeconds: ttl };
  };
}

/** One turn to send with {@link TurnSender}. */
export interface TurnInput {
  conversationId: string;
  /** The conversation token (never the API key). */
  token: string;
  /** The shopper's message, exactly as typed. */
  message: string;
  signal?: AbortSignal;
}

/** Sends one turn; rejects with AuthenticationError (401) when the token is refused. */
export type TurnSender = (turn: TurnInput) => Promise<Turn>;

/** Options of {@link createTurnSender}: a `CatalogClient` (in a browser, without an API key). */
export interface TurnSenderOptions {
  client: RestCaller;
}

/**
 * A {@link TurnSender} for `POST /v1/conversations/{id}/turns` with `Authorization: Bearer
 * <token>` (never `x-api-key`). An empty message is refused (RequestValidationError naming
 * `message`) before sending; a turn is repeated only when it provably never arrived.
 */
export function createTurnSender(options: TurnSenderOptions): TurnSender {
  const operation = 'conversations.sendTurn';
  const { client } = options;
  return async ({ conversationId, token, message, signal }) => {
    const id = validateRequest(ConversationIdSchema, conversationId, operation, 'conversationId');
    const body = validateRequest(TurnRequestSchema, { message }, operation);
    // Checked and trimmed like ChatSession's (visible ASCII only; the token is never quoted).
    const bearer = requireToken(token, operation);
    const response = await client.request(
      {
        operation,
        method: 'POST',
        path: `/v1/conversations/${encodeURIComponent(id)}/turns`,
        body,
        retry: 'once',
        auth: { type: 'bearer', token: bearer },
      },
      { signal },
    );
    return parseResponse(TurnSchema, response.data, operation);
  };
}
