import { ProtocolError } from '../errors/transport-errors.js';
import { BoundedBodyReader, compact, concatChunks, tooLarge } from '../http/body-reader.js';
import type { CallScope } from '../http/call-scope.js';
import { parseServerJson } from '../http/response-body.js';
import { matchResponse, type RpcId } from './json-rpc.js';

type Message = Record<string, unknown>;

/** The answer to `id` an event's data holds; undefined for a notification or a priming event. */
function answerIn(data: string, id: RpcId): Message | undefined {
  // Priming events (an id for resumption, empty data) carry no message.
  if (data.trim() === '') return undefined;
  let payload: unknown;
  try {
    payload = parseServerJson(data);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    // No cause: JSON.parse's message quotes the event's text, past the redactor.
    throw new ProtocolError('MCP event stream carried invalid JSON');
  }
  return matchResponse(payload, id);
}

/**
 * The `data` of each event of a `text/event-stream` (WHATWG HTML §9.2.6), fed whole lines:
 * lines end with CRLF, LF or CR; comments and other fields (`event`, `id`, `retry`) are
 * skipped; an event's `data` lines are joined with LF.
 */
class SseEvents {
  #data: string[] = [];
  /** The last text ended with CR: an LF starting the next one ends the same line. */
  #afterCr = false;

  /** `tooLong` is thrown for a line of more than `maxLine` characters (each one byte or more). */
  constructor(
    readonly maxLine: number,
    readonly tooLong: () => Error,
  ) {}

  /** Feeds text of whole lines; true once `onData` returned true (found what it wanted). */
  feed(text: string, onData: (data: string) => boolean): boolean {
    let lines = this.#afterCr && text.charCodeAt(0) === 10 ? text.slice(1) : text;
    if (text.length > 0) this.#afterCr = text.charCodeAt(text.length - 1) === 13;
    if (lines.includes('\r')) lines = lines.replace(/\r\n?/g, '\n');
    for (let start = 0; start < lines.length; ) {
      const end = lines.indexOf('\n', start);
      if ((end === -1 ? lines.length : end) - start > this.maxLine) throw this.tooLong();
      const line = lines.slice(start, end === -1 ? lines.length : end);
      if (this.#line(line, onData)) return true;
      start = end === -1 ? lines.length : end + 1;
    }
    return false;
  }

  #line(line: string, onData: (data: string) => boolean): boolean {
    if (line === '') {
      if (this.#data.length === 0) return false;
      const data = this.#data.length === 1 ? (this.#data[0] as string) : this.#data.join('\n');
      this.#data = [];
      return onData(data);
    }
    const colon = line.indexOf(':');
    if ((colon === -1 ? line : line.slice(0, colon)) !== 'data') return false;
    // One space after the colon is part of the syntax, not of the value.
    const start =
      colon === -1 ? line.length : line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
    this.#data.push(line.slice(start));
    return false;
  }
}

// Node's TextDecoder leaves its fast UTF-8 path for good once it is called with
// `stream: true` (a tenth of a large SSE call's CPU time). Bytes are decoded up to a line
// end, where no character is split, so they are always decoded whole.
const FIRST_BYTES = /* @__PURE__ */ new TextDecoder(); // strips a BOM at the start, as SSE says
// A later BOM is content.
const LATER_BYTES = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });

/** Just past the last LF or CR of `bytes`, or 0: one backward pass (an event's end is near the end). */
function lineEnd(bytes: Uint8Array): number {
  for (let index = bytes.length - 1; index >= 0; index--) {
    if (bytes[index] === 10 || bytes[index] === 13) return index + 1;
  }
  return 0;
}
const TAIL_BYTES = 4096;

/**
 * The JSON-RPC response to `id` in a `text/event-stream` answer, notifications skipped, read
 * event by event. Searching every chunk whole for a line end would cost a tenth of a large
 * answer's reading, so pending bytes are searched whole only past a megabyte (each chunk once),
 * which keeps the cap on the open line in time. Without a body nothing is read: "ended without
 * the answer".
 */
export async function readSseResponse(
  response: Response,
  id: RpcId,
  scope: CallScope,
): Promise<Message> {
  const reader = new BoundedBodyReader(response, scope);
  let found: Message | undefined;
  const onData = (data: string) => {
    found = answerIn(data, id);
    return found !== undefined;
  };
  const { maxSseLineBytes } = scope.limits;
  const tooLong = () => tooLarge(response, scope, 'maxSseLineBytes');
  const events = new SseEvents(maxSseLineBytes, tooLong);
  const searchAt = Math.min(1_048_576, maxSseLineBytes);
  let pending: Uint8Array[] = [];
  let size = 0;
  let searched = 0; // pending chunks known to hold no line end
  let merged = 0; // pending chunks merged from many
  let decoder = FIRST_BYTES;
  const decode = (bytes: Uint8Array) => {
    const text = decoder.decode(bytes);
    decoder = LATER_BYTES;
    return text;
  };
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk === undefined) {
        // Some servers end the stream right after the data line, without the blank line that
        // closes the event: it is delivered anyway. A truncated event still fails, as invalid JSON.
        if (events.feed(`${decode(concatChunks(pending, size))}\n\n`, onData))
          return found as Message;
        throw new ProtocolError(
          `MCP event stream ended without the answer to request ${JSON.stringify(id)}`,
          { status: reader.response.status },
        );
      }
      pending.push(chunk);
      size += chunk.length;
      let lines: Uint8Array | undefined;
      /** The pending bytes up to `end` of piece `index` (a line end), the rest kept pending. */
      const cut = (index: number, end: number) => {
        const piece = pending[index] as Uint8Array;
        const head = [...pending.slice(0, index), piece.subarray(0, end)];
        const headSize = head.reduce((sum, part) => sum + part.length, 0);
        pending = [piece.subarray(end), ...pending.slice(index + 1)];
        merged = 0;
        size -= headSize;
        return concatChunks(head, headSize);
      };
      if (size >= searchAt) {
        // The last line end of the chunks not searched yet, newest first, splits the bytes.
        for (let index = pending.length - 1; index >= searched && lines === undefined; index--) {
          const end = lineEnd(pending[index] as Uint8Array);
          if (end > 0) lines = cut(index, end);
        }
      } else {
        // Only the chunk's tail: an event and the start of the next in one write (a keep-alive
        // comment) must not wait for more bytes, and a whole-chunk search costs too much.
        const from = Math.max(0, chunk.length - TAIL_BYTES);
        const end = lineEnd(chunk.subarray(from));
        if (end > 0) lines = cut(pending.length - 1, from + end);
      }
      if (lines !== undefined || size >= searchAt) searched = pending.length;
      if (lines !== undefined && events.feed(decode(lines), onData)) return found as Message;
      const next = compact(pending, merged);
      // The merged chunk is searched again (not known to hold no line end in every part).
      if (next > merged) searched = Math.min(searched, merged);
      merged = next;
      if (size > maxSseLineBytes) throw tooLong();
    }
  } finally {
    reader.cancel();
  }
}
