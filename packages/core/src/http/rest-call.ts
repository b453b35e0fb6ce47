import { ProtocolError } from '../errors/transport-errors.js';
import { readBodyText } from './body-reader.js';
import type { CallScope } from './call-scope.js';
import { errorFromResponse } from './error-from-response.js';
import { isJsonMediaType, mediaType, parseJsonText, snippet, typeShown } from './response-body.js';
import type { RetryMode } from './retry.js';
import type { RequestOptions, ServiceConnection } from './service-connection.js';

/** How a REST request authenticates: the client's API key, or a bearer token. */
export type RestAuth = { type: 'api-key' } | { type: 'bearer'; token: string };

/** One REST call, described independently of its retries. */
export interface RestRequest {
  /** Name used in errors and logs, e.g. `websites.search`. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path under the base URL, starting with `/v1/`. */
  path: string;
  /** The query: parameters, or a string already encoded (without the `?`). */
  query?: URLSearchParams | string;
  /** JSON body, sent as given. */
  body?: unknown;
  /** Whether the request may be repeated after a failure that may have reached the service. */
  retry: RetryMode;
  /** Default: the API key. */
  auth?: RestAuth;
}

/** A successful REST answer. */
export interface RestResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined for an empty body). */
  data: unknown;
}

function buildRequest(connection: ServiceConnection, request: RestRequest) {
  const query = request.query?.toString();
  const url = connection.restUrl(
    query ? `${request.path}?${query}` : request.path,
    request.operation,
  );
  const withBody = request.body !== undefined;
  const headers =
    request.auth?.type === 'bearer'
      ? connection.headers({
          accept: 'application/json',
          ...(withBody ? { 'content-type': 'application/json' } : {}),
          authorization: `Bearer ${request.auth.token}`,
        })
      : connection.apiKeyHeaders(request.operation, withBody);
  return {
    method: request.method,
    url,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  };
}

async function attempt(
  connection: ServiceConnection,
  request: RestRequest,
  outgoing: ReturnType<typeof buildRequest>,
  scope: CallScope,
): Promise<RestResponse> {
  const response = await connection.send(outgoing, scope);
  const text = await readBodyText(response, scope);
  const { operation, auth } = request;
  // A bearer token is a credential too, and so is the payment credential of a paid resend:
  // an answer echoing either must not put it in an error.
  const redact = connection.redactFor(scope, auth?.type === 'bearer' ? auth.token : undefined);
  const { status, headers } = response;
  if (status < 200 || status > 299) {
    throw errorFromResponse(response, text, { operation, redact, credentialSent: true });
  }
  if (text.trim() === '') return { status, headers, data: undefined };
  const type = mediaType(response);
  if (!isJsonMediaType(type)) {
    throw new ProtocolError(
      `${operation}: expected JSON, got ${typeShown(response, redact)} (HTTP ${status}): ${snippet(text, redact)}`,
      { status },
    );
  }
  const data = parseJsonText(text, response, operation, redact);
  // A paid answer may echo its credential: it leaves the call redacted with that credential.
  const paid = connection.paidRedactor(scope);
  return { status, headers, data: paid === undefined ? data : paid(data) };
}

/**
 * Sends a REST request with the client's retries, timeout and credential handling, and
 * returns the parsed JSON. Configuration problems (no base URL, no key) throw before
 * anything is sent.
 */
export function callRest(
  connection: ServiceConnection,
  request: RestRequest,
  options?: RequestOptions,
): Promise<RestResponse> {
  let outgoing: ReturnType<typeof buildRequest>;
  try {
    outgoing = buildRequest(connection, request);
  } catch (error) {
    return Promise.reject(error);
  }
  return connection.run(request.operation, request.retry, options, (scope) =>
    attempt(connection, request, outgoing, scope),
  );
}
