import { ConnectionError, ProtocolError } from '../errors/transport-errors.js';
import type { CallScope } from './call-scope.js';
import type { Redactor } from './redact.js';

/** One outgoing HTTP request, credential headers included. */
export interface OutgoingRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /**
   * Absolute URL, as text: fetch parses it anyway, so the usual call parses it once; the
   * rare paths (redirects, errors) parse it themselves.
   */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

// Error codes that mean the connection was never established, so no byte of the request
// reached the service (Node/undici, Bun). Anything else may have been delivered.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ConnectionRefused',
]);

function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}

/** True when every underlying error of a failed fetch says the connection never opened. */
function provablyNotSent(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const nested = (cause as { errors?: unknown } | null)?.errors;
  const causes = Array.isArray(nested) && nested.length > 0 ? nested : [cause];
  return causes.every((item) => NOT_SENT_CODES.has(errorCode(item) ?? ''));
}

/**
 * The path a message names: always the first hop's, which the client built. After a
 * redirect the current path is the server's `Location`, which may echo a secret (a proxy
 * redirecting to `/keys/<key>/…`); this one rule keeps every message of this file free of
 * server-chosen text. The query is left out (it holds the caller's input).
 */
function pathOf(first: OutgoingRequest): string {
  return new URL(first.url).pathname;
}

function toConnectionError(
  error: unknown,
  first: OutgoingRequest,
  redact: Redactor,
): ConnectionError {
  const code = errorCode((error as { cause?: unknown } | null)?.cause);
  const reason = code ?? (error instanceof Error ? redact(error.message) : 'unknown error');
  const { origin, pathname } = new URL(first.url);
  return new ConnectionError(`${first.method} ${origin}${pathname} failed: ${reason}`, {
    cause: error,
    redact,
    requestSent: !provablyNotSent(error),
  });
}

/** The request to send after a same-origin redirect (RFC 9110 §15.4, fetch spec). */
function redirected(request: OutgoingRequest, status: number, target: URL): OutgoingRequest {
  const becomesGet =
    status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  if (!becomesGet) return { ...request, url: target.href };
  const { 'content-type': _dropped, ...headers } = request.headers;
  return { method: 'GET', url: target.href, headers };
}

/**
 * What a failed fetch means: the scope's own failure, or a ConnectionError. `earlier`: an
 * earlier hop of this call may have been acted on, which this hop's refused connection
 * does not undo.
 */
function fetchFailure(
  error: unknown,
  first: OutgoingRequest,
  scope: CallScope,
  earlier: boolean,
  redact: Redactor,
): Error {
  if (scope.failure) return scope.failure;
  const failure = toConnectionError(error, first, redact);
  scope.mayHaveArrived = earlier || failure.requestSent;
  return failure;
}

/**
 * A redirect answering a change: the change may have been applied before the redirect, and
 * following it would send the change again (307/308, and 301/302 for PATCH, keep the body),
 * possibly to another path. It is not followed; the call fails with its outcome unknown.
 */
function refusedChangeRedirect(request: OutgoingRequest, status: number): ProtocolError {
  return new ProtocolError(
    `${request.method} ${pathOf(request)} answered HTTP ${status} (a redirect) to a change; not followed, since that would send the change again, and the change may have been applied`,
    { status },
  );
}

function resolveLocation(
  location: string,
  current: OutgoingRequest,
  first: OutgoingRequest,
  status: number,
): URL {
  try {
    return new URL(location, current.url);
  } catch {
    // The header is not echoed: it is the server's text, and any URL is worth nothing here.
    throw new ProtocolError(
      `${pathOf(first)} answered HTTP ${status} with a Location header that is not a valid URL`,
      { status },
    );
  }
}

function redirectTarget(
  response: Response,
  current: OutgoingRequest,
  first: OutgoingRequest,
): URL | undefined {
  if (response.type === 'opaqueredirect') {
    throw new ProtocolError(
      `${pathOf(first)} answered with a redirect this runtime cannot inspect; set the final URL in the client options`,
    );
  }
  const location = response.headers.get('location');
  if (location === null) return undefined;
  const target = resolveLocation(location, current, first, response.status);
  // Every hop shares the first one's origin (no other is followed): the client chose it.
  const { origin } = new URL(first.url);
  if (target.origin !== origin) {
    // Following would hand the credential headers to another origin. The target is not
    // named: it is the server's text, and may echo a secret (even in its host name).
    throw new ProtocolError(
      `${pathOf(first)} redirected to another origin; not followed so the API key stays with ${origin}`,
      { status: response.status },
    );
  }
  return target;
}

/** The redirect target, if any; a redirect's body is dropped, also when refused. */
async function redirectTargetOrDrain(
  response: Response,
  current: OutgoingRequest,
  first: OutgoingRequest,
): Promise<URL | undefined> {
  let target: URL | undefined;
  try {
    target = redirectTarget(response, current, first);
  } catch (error) {
    await response.body?.cancel().catch(() => undefined);
    throw error;
  }
  if (target !== undefined) await response.body?.cancel().catch(() => undefined);
  return target;
}

/**
 * Sends a request with `redirect: 'manual'`, following same-origin redirects itself and
 * refusing cross-origin ones; a call that changes data follows none (see
 * {@link refusedChangeRedirect}). Failures become ConnectionError (with `requestSent`), or the
 * scope's TimeoutError/AbortError.
 */
export async function send(
  fetchImpl: typeof fetch,
  request: OutgoingRequest,
  scope: CallScope,
  redact: Redactor,
): Promise<Response> {
  let current = request;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    // What earlier hops of this call left: an answer that may follow a change stays so.
    const earlier = hop > 0 && scope.mayHaveArrived;
    // From here on the service may receive the request, until an answer or a refused
    // connection proves otherwise. fetch sends nothing on a signal that has already aborted.
    if (!scope.signal.aborted) scope.mayHaveArrived = true;
    let response: Response;
    try {
      response = await fetchImpl(current.url, {
        method: current.method,
        headers: current.headers,
        body: current.body,
        redirect: 'manual',
        signal: scope.signal,
      });
    } catch (error) {
      throw fetchFailure(error, request, scope, earlier, redact);
    }
    const { status } = response;
    // A 4xx is a refusal: the service did not act on the request. Anything else (a 2xx, a
    // 5xx, a redirect such as 303 after processing) may follow a change.
    scope.mayHaveArrived = earlier || status < 400 || status >= 500;
    // Most answers are not redirects and return here. A redirect a browser hides (opaque)
    // has status 0: redirectTargetOrDrain refuses it.
    if (status !== 0 && !REDIRECT_STATUSES.has(status)) return response;
    if (scope.mutates && status !== 0) {
      await response.body?.cancel().catch(() => undefined);
      throw refusedChangeRedirect(request, status);
    }
    const target = await redirectTargetOrDrain(response, current, request);
    if (target === undefined) return response;
    current = redirected(current, status, target);
  }
  throw new ProtocolError(`${pathOf(request)}: more than ${MAX_REDIRECTS} redirects`);
}
