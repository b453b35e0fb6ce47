/**
 * The body of one POST to the HTTP handler, read within limits a hostile client cannot
 * stretch: at most `maxBodyBytes`, within `bodyTimeoutMs`, a batch of at most `maxBatchSize`
 * messages. Web-standard APIs only: the handler runs on edge runtimes too.
 */

/** The limits on one request (options of the handler, checked when it is made). */
export interface RequestLimits {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  maxBatchSize: number;
}

/** The parsed JSON body, or the answer that refuses it. */
export type BodyOutcome = { ok: true; message: unknown } | { ok: false; response: Response };

/** A JSON-RPC error answer with no id (the request's id is unknown or unread). */
export function rpcErrorResponse(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}

function refused(status: number, code: number, message: string): BodyOutcome {
  return { ok: false, response: rpcErrorResponse(status, code, message) };
}

const tooLarge = (limits: RequestLimits) =>
  refused(413, -32600, `Request body too large: at most ${limits.maxBodyBytes} bytes.`);

type ReadResult = { kind: 'body'; bytes: Uint8Array } | { kind: 'tooLarge' | 'late' | 'broken' };

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function readChunks(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  stopped: Promise<ReadResult>,
): Promise<ReadResult> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const read = reader.read();
    // A read left pending when the deadline wins may reject later (on releaseLock).
    read.catch(() => undefined);
    const next = await Promise.race([read, stopped]);
    if ('kind' in next) return next;
    if (next.done) return { kind: 'body', bytes: concat(chunks, length) };
    length += next.value.byteLength;
    // Stop as soon as the limit is passed: nothing more is buffered for a client that
    // streams an endless body.
    if (length > maxBytes) return { kind: 'tooLarge' };
    chunks.push(next.value);
  }
}

/**
 * Reads at most `maxBytes` within `timeoutMs`; gives up early when the client goes away.
 * The body is left unread past the limit, not cancelled: cancelling a Node request stream
 * destroys the socket before the refusal is written, and the host drains or closes it.
 */
async function readBounded(request: Request, limits: RequestLimits): Promise<ReadResult> {
  if (!request.body) return { kind: 'body', bytes: new Uint8Array() };
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<ReadResult>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'late' }), limits.bodyTimeoutMs);
    onAbort = () => resolve({ kind: 'broken' });
    request.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await readChunks(reader, limits.maxBodyBytes, stopped);
  } catch {
    return { kind: 'broken' };
  } finally {
    clearTimeout(timer);
    if (onAbort) request.signal.removeEventListener('abort', onAbort);
    try {
      reader.releaseLock();
    } catch {
      // An older stream refuses to release with a read pending; it goes with the request.
    }
  }
}

function declaredLength(request: Request): number | undefined {
  const header = request.headers.get('content-length');
  if (header === null || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

function parseJson(bytes: Uint8Array): BodyOutcome {
  try {
    // fatal: a body that is not UTF-8 is refused, not read with replacement characters.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { ok: true, message: JSON.parse(text) as unknown };
  } catch {
    return refused(400, -32700, 'Parse error: the body is not JSON (UTF-8).');
  }
}

function checkBatch(message: unknown, limits: RequestLimits): BodyOutcome {
  if (!Array.isArray(message)) return { ok: true, message };
  if (message.length === 0) return refused(400, -32600, 'Invalid Request: empty batch.');
  if (message.length > limits.maxBatchSize) {
    return refused(
      400,
      -32600,
      `Invalid Request: a batch of ${message.length} messages; at most ${limits.maxBatchSize}.`,
    );
  }
  // Each request has its own server, so a cancellation can only name a request of its own
  // batch; the SDK then never answers that request and the response never ends.
  if (message.some(isCancellation)) {
    return refused(400, -32600, 'Invalid Request: notifications/cancelled inside a batch.');
  }
  if (repeatsAnId(message)) {
    return refused(400, -32600, 'Invalid Request: two messages of the batch share an id.');
  }
  return { ok: true, message };
}

/*
 * The SDK keys what it knows of a running request by its id: a second request with the same
 * id takes the first one's abort controller (so closing the server no longer stops the first
 * call) and its place in the answer (so the response ends after the first answer, or merges
 * answers). Ids are compared as the SDK's Map compares them after JSON.parse (SameValueZero:
 * 0, -0 and 0.0 are one id; the string "1" and the number 1 are two).
 */
function repeatsAnId(batch: readonly unknown[]): boolean {
  const seen = new Set<unknown>();
  for (const message of batch) {
    if (typeof message !== 'object' || message === null || !('id' in message)) continue;
    if (seen.has(message.id)) return true;
    seen.add(message.id);
  }
  return false;
}

function isCancellation(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    'method' in message &&
    message.method === 'notifications/cancelled'
  );
}

/** The request's JSON-RPC message (or batch), or the 4xx answer refusing it. */
export async function readJsonRpcBody(
  request: Request,
  limits: RequestLimits,
): Promise<BodyOutcome> {
  // Refused before reading anything when the client says up front it is too large.
  if ((declaredLength(request) ?? 0) > limits.maxBodyBytes) return tooLarge(limits);
  const read = await readBounded(request, limits);
  switch (read.kind) {
    case 'tooLarge':
      return tooLarge(limits);
    case 'late':
      return refused(408, -32600, `Request body not received within ${limits.bodyTimeoutMs} ms.`);
    case 'broken':
      return refused(400, -32600, 'Request body could not be read.');
    case 'body': {
      const parsed = parseJson(read.bytes);
      return parsed.ok ? checkBatch(parsed.message, limits) : parsed;
    }
  }
}
