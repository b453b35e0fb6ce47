import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/*
 * The life of the server the HTTP handler makes for one request. Closing it is what aborts
 * the tool calls still running for that request (the SDK aborts every in-flight handler's
 * signal on close) and lets the server, its transport and their streams go. So it must close
 * however the response ends: answer written, body read to the end, body cancelled unread,
 * client gone mid-stream, an error.
 */

// Servers made by the handler and not yet closed, across every handler of this module: the
// tests read it to prove each request's server closes. Not part of the package's exports.
let openServers = 0;

/** How many servers the HTTP handler made that are not closed yet (a test hook). */
export function openServerCount(): number {
  return openServers;
}

/** One request's server, closed at most once, from whichever end comes first. */
export interface RequestScope {
  /**
   * Aborts on close. The request's tool calls run under it as well as under the SDK's own
   * signal, so closing stops every one of them (see `serverFor`).
   */
  readonly signal: AbortSignal;
  close(): void;
}

/**
 * Opens the scope of one request, closed on `close()` or when `clientSignal` (the request's
 * own signal, aborted by hosts when the client disconnects) aborts; it is closed at once if
 * that signal has already aborted. `signal` aborts on close.
 */
export function openScope(clientSignal: AbortSignal): RequestScope {
  const closed = new AbortController();
  openServers += 1;
  const close = () => {
    if (closed.signal.aborted) return;
    clientSignal.removeEventListener('abort', close);
    openServers -= 1;
    closed.abort();
  };
  if (clientSignal.aborted) close();
  else clientSignal.addEventListener('abort', close, { once: true });
  return { signal: closed.signal, close };
}

/** Closes `server` when `scope` closes (the scope must still be open). */
export function closeWithScope(server: McpServer, scope: RequestScope): void {
  scope.signal.addEventListener(
    'abort',
    // Transport.close only clears maps and streams: nothing here to report to a client.
    () => void server.close().catch(() => undefined),
    { once: true },
  );
}

/** Resolves when `signal` aborts (never, if it does not). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  controller: ReadableStreamDefaultController<Uint8Array>,
): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      controller.enqueue(value);
    }
    controller.close();
  } catch (error) {
    try {
      controller.error(error);
    } catch {
      // Already cancelled by the client: nobody is left to tell.
    }
  }
}

/**
 * The SSE body handed to the client, closing `scope` once the transport has written its last
 * event (not when the client gets round to reading it) or when the client cancels the body.
 * It moves events on as the transport writes them, without waiting for the reader: the
 * transport's own stream already queues every event regardless of the reader, so nothing
 * is held that was not held before, and a client that never reads cannot keep the server.
 */
export function closingBody(
  source: ReadableStream<Uint8Array>,
  scope: RequestScope,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Not returned: the stream must not wait for the whole answer before it starts.
      void pump(reader, controller).finally(scope.close);
    },
    cancel(reason) {
      scope.close();
      return reader.cancel(reason);
    },
  });
}
