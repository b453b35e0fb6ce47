import { ConnectionError, ProtocolError } from '../errors/transport-errors.js';
import type { CallScope } from './call-scope.js';
import type { Redactor } from './redact.js';

/** One outgoing HTTP request, credential headers included. */
export interface OutgoingRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /** Absolute URL, as text: only the rare paths (redirects, errors) parse it besides fetch. */
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
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The ConnectionError of a failed fetch, `requestSent` unless it provably never left. */
function connectionError(
  error: unknown,
  first: OutgoingRequest,
  redact: Redactor,
): ConnectionError {
  const cause = (error as { cause?: { errors?: unknown } } | null)?.cause;
  const reason = errorCode(cause) ?? (error instanceof Error ? error.message : 'unknown error');
  const { origin, pathname } = new URL(first.url);
  const causes = Array.isArray(cause?.errors) && cause.errors.length > 0 ? cause.errors : [cause];
  // Redacted whole: a gateway's base URL may hold the key in its path.
  return new ConnectionError(redact(`${first.method} ${origin}${pathname} failed: ${reason}`), {
    cause: error,
    redact,
    requestSent: !causes.every((item) => NOT_SENT_CODES.has(errorCode(item) ?? '')),
  });
}

/**
 * The request a redirect leads to, or undefined without a `Location` (the answer is returned);
 * one not followed is a ProtocolError naming no server text.
 */
function nextHop(
  response: Response,
  current: OutgoingRequest,
  first: OutgoingRequest,
  mutates: boolean,
  redact: Redactor,
): OutgoingRequest | undefined {
  const { status } = response;
  // Messages name the first hop's path, which the client built, never a `Location`, which may
  // echo a secret (`/keys/<key>/…`), nor the query, which holds the caller's input.
  const { origin, pathname } = new URL(first.url);
  const path = redact(pathname);
  if (response.type === 'opaqueredirect') {
    throw new ProtocolError(
      `${path} answered with a redirect this runtime cannot inspect; set the final URL in the client options`,
    );
  }
  if (mutates) {
    throw new ProtocolError(
      `${first.method} ${path} answered HTTP ${status} (a redirect) to a change; not followed, since that would send the change again, and the change may have been applied`,
      { status },
    );
  }
  const location = response.headers.get('location');
  if (location === null) return undefined;
  let target: URL;
  try {
    target = new URL(location, current.url);
  } catch {
    throw new ProtocolError(
      `${path} answered HTTP ${status} with a Location header that is not a valid URL`,
      { status },
    );
  }
  // Every hop shares the first one's origin (no other is followed): the client chose it.
  // Userinfo, which the origin ignores, would make fetch quote the whole Location.
  if (target.origin !== origin || target.username || target.password) {
    throw new ProtocolError(
      `${path} redirected to another origin or a URL with credentials; not followed so the API key stays with ${origin}`,
      { status },
    );
  }
  // RFC 9110 §15.4, as fetch does it.
  const becomesGet =
    status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
  if (!becomesGet) return { ...current, url: target.href };
  const { 'content-type': _dropped, ...headers } = current.headers;
  return { method: 'GET', url: target.href, headers };
}

/**
 * Sends a request, following same-origin redirects itself (see {@link nextHop}).
 * Failures become ConnectionError (with `requestSent`), or the scope's own failure.
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
      // Raced against the signal: a fetch wrapper that drops it must not outlive the call.
      const sent = fetchImpl(current.url, {
        method: current.method,
        headers: current.headers,
        body: current.body,
        redirect: 'manual',
        signal: scope.signal,
      });
      response = await scope.until(sent);
    } catch (error) {
      if (scope.failure) throw scope.failure;
      const failure = connectionError(error, request, redact);
      scope.mayHaveArrived = earlier || failure.requestSent;
      throw failure;
    }
    const { status } = response;
    // A 4xx is a refusal: the service did not act on the request. Anything else (a 2xx, a
    // 5xx, a redirect such as 303 after processing) may follow a change.
    scope.mayHaveArrived = earlier || status < 400 || status >= 500;
    // A redirect a browser hides (opaque) has status 0.
    if (status !== 0 && !REDIRECT_STATUSES.has(status)) return response;
    // A redirect's body is dropped, also when it is refused; not awaited: a fetch option's
    // stream (a tee) may settle the cancel only once the whole body has come.
    const drop = () => void response.body?.cancel().catch(() => undefined);
    let next: OutgoingRequest | undefined;
    try {
      next = nextHop(response, current, request, scope.mutates, redact);
    } catch (error) {
      drop();
      throw error;
    }
    if (next === undefined) return response;
    drop();
    current = next;
  }
  throw new ProtocolError(
    `${redact(new URL(request.url).pathname)}: more than ${MAX_REDIRECTS} redirects`,
  );
}
