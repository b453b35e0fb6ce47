import { ProtocolError } from '../errors/transport-errors.js';
import { BoundedBodyReader, concatChunks, tooLarge } from '../http/body-reader.js';
import type { CallScope } from '../http/call-scope.js';
import { parseServerJson } from '../http/response-body.js';
import { matchResponse, type RpcId } from './json-rpc.js';
import { SseEventReader } from './sse-events.js';

type Found = { message: Record<string, unknown> } | { error: unknown } | undefined;

function inspectEvent(data: string, id: RpcId): Found {
  // Priming events (an id for resumption, empty data) carry no message.
  if (data.trim() === '') return undefined;
  let payload: unknown;
  try {
    payload = parseServerJson(data);
  } catch (error) {
    if (error instanceof ProtocolError) return { error };
    // No cause: JSON.parse's message quotes the event's text, past the redactor.
    return { error: new ProtocolError('MCP event stream carried invalid JSON') };
  }
  try {
    const message = matchResponse(payload, id);
    return message ? { message } : undefined;
  } catch (error) {
    return { error };
  }
}

const LF = 0x0a;
const CR = 0x0d;

function isLineEnd(byte: number): boolean {
  return byte === LF || byte === CR;
}
/**
 * Received bytes are decoded at least this often (1 MiB), so a line cap is checked in time.
 */
const DECODE_AT_LEAST_EVERY = 1_048_576;

/**
 * Bytes received but not decoded yet. They are decoded together once the stream may be at
 * the end of an event (its last bytes are a blank line): an answer event that arrives in
 * many chunks is then decoded in one go into one string, instead of chunk by chunk into
 * pieces joined afterwards, which for a 650 kB answer cost as much again as decoding it.
 */
class PendingBytes {
  #chunks: Uint8Array[] = [];
  #size = 0;
  // The last three bytes received, newest first: enough to see a blank line end.
  #last = 0;
  #beforeLast = 0;
  #third = 0;

  add(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    for (let index = Math.max(0, chunk.length - 3); index < chunk.length; index++) {
      this.#third = this.#beforeLast;
      this.#beforeLast = this.#last;
      this.#last = chunk[index] as number;
    }
  }

  get size(): number {
    return this.#size;
  }

  /** Whether the bytes so far end with a blank line (LF LF, CR CR, CRLF CRLF and mixes). */
  endsAtEventEnd(): boolean {
    const before = this.#beforeLast;
    if (this.#last === LF) return before === LF || (before === CR && isLineEnd(this.#third));
    return this.#last === CR && isLineEnd(before);
  }

  take(): Uint8Array {
    const all = concatChunks(this.#chunks, this.#size);
    this.#chunks = [];
    this.#size = 0;
    return all;
  }
}

// Node's TextDecoder leaves its fast UTF-8 path for good once it is called with
// `stream: true` (a slower converter then decodes every byte; it was a tenth of a large
// SSE call's CPU time). Bytes that end at a line end hold no split character, so they are
// decoded whole on the fast path; only bytes cut mid-line go through a streaming decoder.
const FIRST_BYTES = /* @__PURE__ */ new TextDecoder(); // strips a BOM at the start, as SSE says
// A later BOM is content.
const LATER_BYTES = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes a stream's bytes in pieces, on the fast path whenever a piece ends a line. */
class StreamText {
  #streaming: TextDecoder | undefined;
  #started = false;
  // Whether the streaming decoder may hold the first bytes of a split character.
  #holdsPartial = false;

  /** `last`: the stream's final bytes (a split character there becomes U+FFFD). */
  decode(bytes: Uint8Array, atLineEnd: boolean, last = false): string {
    if ((atLineEnd || last) && !this.#holdsPartial) {
      const text = (this.#started ? LATER_BYTES : FIRST_BYTES).decode(bytes);
      this.#started = true;
      return text;
    }
    this.#streaming ??= new TextDecoder('utf-8', { ignoreBOM: this.#started });
    this.#started = true;
    this.#holdsPartial = !atLineEnd && !last;
    return this.#streaming.decode(bytes, { stream: !last });
  }
}

async function readUntilFound(reader: BoundedBodyReader, id: RpcId): Promise<Found> {
  let found: Found;
  const onData = (data: string) => {
    found = inspectEvent(data, id);
    return found !== undefined;
  };
  const events = new SseEventReader();
  const decoder = new StreamText();
  const pending = new PendingBytes();
  const { maxSseLineBytes } = reader.scope.limits;
  const decodeEvery = Math.min(DECODE_AT_LEAST_EVERY, maxSseLineBytes);
  for (;;) {
    const chunk = await reader.read();
    if (chunk === undefined) {
      // Some servers end the stream right after the data line, without the blank line
      // that closes the event; the reader delivers it anyway. A truncated event still
      // fails, as invalid JSON.
      const rest = decoder.decode(pending.take(), false, true);
      events.feed(rest, onData) || events.end(onData);
      return found;
    }
    pending.add(chunk);
    const atEventEnd = pending.endsAtEventEnd();
    if (!atEventEnd && pending.size < decodeEvery) continue;
    if (events.feed(decoder.decode(pending.take(), atEventEnd), onData)) return found;
    // The reader keeps an open line whole: cap it before it grows without end. Counted in
    // decoded characters (bytes for ASCII).
    if (events.openLineLength > maxSseLineBytes) {
      throw tooLarge(reader.response, reader.scope, 'maxSseLineBytes');
    }
  }
}

/**
 * Reads a `text/event-stream` answer until the event holding the JSON-RPC response to
 * `id`; notifications before it are skipped. Stops reading (and closes the stream) as
 * soon as the answer is found. The stream is bounded by the scope's body limits.
 */
export async function readSseResponse(
  response: Response,
  id: RpcId,
  scope: CallScope,
): Promise<Record<string, unknown>> {
  if (!response.body)
    throw new ProtocolError('MCP event stream has no body', { status: response.status });
  const reader = new BoundedBodyReader(response, scope);
  let found: Found;
  try {
    found = await readUntilFound(reader, id);
  } finally {
    reader.cancel();
  }
  if (found === undefined) {
    throw new ProtocolError(
      `MCP event stream ended without the answer to request ${JSON.stringify(id)}`,
      { status: response.status },
    );
  }
  if ('error' in found) throw found.error;
  return found.message;
}
