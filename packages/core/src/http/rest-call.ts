import { ProtocolError } from '../errors/transport-errors.js';
import { readBodyText } from './body-reader.js';
import { errorFromResponse } from './error-from-response.js';
import { mediaType, parseJsonText, snippet, typeShown } from './response-body.js';
import type { RetryMode } from './retry.js';
import type { RequestOptions, ServiceConnection } from './service-connection.js';

/** One REST call. */
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
  /** How it authenticates: the client's API key (the default), or a bearer token. */
  auth?: { type: 'api-key' } | { type: 'bearer'; token: string };
}

/** A successful REST answer. */
export interface RestResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined for an empty body). */
  data: unknown;
}

/** Sends a REST request with the client's retries, timeout and credentials; parses its JSON. */
export async function callRest(
  connection: ServiceConnection,
  request: RestRequest,
  options?: RequestOptions,
): Promise<RestResponse> {
  const { operation, auth, body, query } = request;
  const search = query?.toString();
  const url = connection.restUrl(search ? `${request.path}?${search}` : request.path, operation);
  // A bearer token is a credential too, and so is the payment credential of a paid resend:
  // an answer echoing either must not put it in an error.
  const token = auth?.type === 'bearer' ? auth.token : undefined;
  const headers =
    token === undefined
      ? connection.apiKeyHeaders(operation, body !== undefined)
      : connection.headers({
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          authorization: `Bearer ${token}`,
        });
  const json = body === undefined ? undefined : JSON.stringify(body);
  const outgoing = { method: request.method, url, headers, body: json };
  return connection.run(operation, request.retry, options, async (scope) => {
    scope.bearer = token;
    const response = await connection.send(outgoing, scope);
    const text = await readBodyText(response, scope);
    const redact = connection.redactFor(scope);
    const { status } = response;
    if (status < 200 || status > 299) {
      throw errorFromResponse(response, text, { operation, redact, credentialSent: true });
    }
    if (text.trim() === '') return { status, headers: response.headers, data: undefined };
    if (!/^application\/(.*\+)?json$/.test(mediaType(response))) {
      throw new ProtocolError(
        `${operation}: expected JSON, got ${typeShown(response, redact)} (HTTP ${status}): ${snippet(text, redact)}`,
        { status },
      );
    }
    const data = parseJsonText(text, response, operation, redact);
    // A paid answer may echo its credential: it leaves the call redacted with that credential.
    const paid = scope.credential !== undefined;
    return { status, headers: response.headers, data: paid ? redact(data) : data };
  });
}
