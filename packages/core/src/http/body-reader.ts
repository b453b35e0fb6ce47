import {
  ConnectionError,
  ProtocolError,
  ResponseTooLargeError,
} from '../errors/transport-errors.js';
import type { BodyLimits, CallScope } from './call-scope.js';

// Error codes of a body that does not decode as its Content-Encoding says (Node's zlib for
// gzip/deflate, its brotli and zstd decoders): the server sent a broken answer, which is a
// protocol failure, not a dropped connection worth retrying.
const DECODING_CODE = /^(Z_|ERR__ERROR|ERR_BROTLI|ERR_ZSTD)/;

function isDecodingFailure(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DECODING_CODE.test(code);
}

/** What a failed body read means: the scope's own failure, a corrupt encoding, or a drop. */
function readFailure(error: unknown, response: Response, scope: CallScope): Error {
  if (scope.failure) return scope.failure;
  if (error instanceof ProtocolError) return error;
  if (isDecodingFailure(error)) {
    // No cause: the decoder's message is harmless, but the rule is one path for all causes.
    return new ProtocolError(
      `${scope.operation}: the answer could not be decoded as its Content-Encoding (${response.headers.get('content-encoding') ?? 'none'}) says`,
      { status: response.status },
    );
  }
  return new ConnectionError(
    `${scope.operation}: the connection dropped while reading the answer`,
    {
      cause: error,
      requestSent: true,
    },
  );
}

/**
 * The reason given when the client stops reading an answer. Without one, Node's fetch builds
 * a DOMException, whose stack trace cost more than the rest of an SSE call's own work.
 */
const STOPPED_READING = /* @__PURE__ */ new Error('catalogkit stopped reading the answer');

const decoder = /* @__PURE__ */ new TextDecoder();

/**
 * Reads a response body chunk by chunk, counting bytes after decoding (so a gzip bomb
 * counts what it expands to) and cancelling the body past `scope.limits.maxResponseBytes`.
 * Read failures become the scope's TimeoutError/AbortError, a ProtocolError (corrupt
 * encoding, too large) or a ConnectionError (`requestSent: true`).
 */
export class BoundedBodyReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #bytes = 0;

  constructor(
    readonly response: Response,
    readonly scope: CallScope,
  ) {
    this.#reader = response.body?.getReader();
  }

  /** The next chunk, or undefined at the end of the body. */
  async read(): Promise<Uint8Array | undefined> {
    if (this.#reader === undefined) return undefined;
    try {
      const chunk = await this.#reader.read();
      return chunk.done ? undefined : this.#counted(chunk.value);
    } catch (error) {
      this.cancel();
      throw readFailure(error, this.response, this.scope);
    }
  }

  /** Counts a chunk in; a ResponseTooLargeError once the body is past its limit. */
  #counted(chunk: Uint8Array): Uint8Array {
    this.#bytes += chunk.byteLength;
    const limit = this.scope.limits.maxResponseBytes;
    if (this.#bytes > limit) throw tooLarge(this.response, this.scope, 'maxResponseBytes');
    return chunk;
  }

  /** Stops reading and releases the connection (the rest of the body is never read). */
  cancel(): void {
    this.#reader?.cancel(STOPPED_READING).catch(() => undefined);
  }
}

/** The chunks as one array (the chunk itself when there is one). */
export function concatChunks(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** The typed error for an exceeded limit; names the limit, never the body. */
export function tooLarge(
  response: Response,
  scope: CallScope,
  limit: keyof BodyLimits,
): ResponseTooLargeError {
  return new ResponseTooLargeError(scope.operation, limit, scope.limits[limit], {
    status: response.status,
  });
}

/**
 * Reads the whole body as UTF-8 text within `scope.limits.maxResponseBytes`, with the
 * errors of BoundedBodyReader. One loop in one frame, without a reader object: every JSON
 * answer comes through here, and a call of `read` per chunk would cost a promise each. One
 * decode of the joined bytes is cheaper than a decode per chunk.
 */
export async function readBodyText(response: Response, scope: CallScope): Promise<string> {
  const limit = scope.limits.maxResponseBytes;
  // A body framed by its length, not encoded, cannot exceed it: fetch reads it whole.
  const { headers } = response;
  const length = Number(headers.get('content-length') ?? Number.NaN);
  if (length <= limit && !headers.has('content-encoding')) {
    return response.text().catch((error: unknown) => {
      throw readFailure(error, response, scope);
    });
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.byteLength;
      if (size > limit) throw tooLarge(response, scope, 'maxResponseBytes');
      chunks.push(chunk.value);
    }
  } catch (error) {
    reader.cancel(STOPPED_READING).catch(() => undefined);
    throw readFailure(error, response, scope);
  }
  return size === 0 ? '' : decoder.decode(concatChunks(chunks, size));
}
