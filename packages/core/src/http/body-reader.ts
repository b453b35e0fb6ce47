import { CatalogError, ConfigurationError } from '../errors/catalog-error.js';
import {
  ConnectionError,
  ProtocolError,
  ResponseTooLargeError,
} from '../errors/transport-errors.js';
import type { BodyLimits, CallScope } from './call-scope.js';

// Codes of a body that does not decode as its Content-Encoding says (Node's zlib, brotli and
// zstd): a broken answer is a protocol failure, not a dropped connection worth retrying.
const DECODING_CODE = /^(Z_|ERR__ERROR|ERR_BROTLI|ERR_ZSTD)/;

function readFailure(error: unknown, response: Response, scope: CallScope): Error {
  if (scope.failure) return scope.failure;
  if (error instanceof CatalogError) return error;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string' && DECODING_CODE.test(cause.code)) {
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

/** A body a fetch option made unreadable: read, locked, or re-streamed as other than bytes. */
const badFetch = (scope: CallScope, what: string) =>
  new ConfigurationError(`${scope.operation}: option fetch gave ${what}`);

/** Given when the client stops reading: without one, fetch builds a costly DOMException. */
const STOPPED_READING = /* @__PURE__ */ new Error('catalogkit stopped reading the answer');

const decoder = /* @__PURE__ */ new TextDecoder();

/** Reads a body chunk by chunk, cancelled past `maxResponseBytes` counted after decoding. */
export class BoundedBodyReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  size = 0;

  constructor(
    readonly response: Response,
    readonly scope: CallScope,
  ) {
    if (response.bodyUsed || response.body?.locked) throw badFetch(scope, 'a body already in use');
    this.#reader = response.body?.getReader();
    // One hook per body, not a race per chunk: a stop cancels the stream, which ends the read
    // in progress, also when a fetch wrapper dropped the signal.
    scope.onStop(() => this.cancel());
  }

  async read(): Promise<Uint8Array | undefined> {
    try {
      const chunk = await this.#reader?.read();
      if (this.scope.failure) throw this.scope.failure;
      if (chunk === undefined || chunk.done) return undefined;
      // Text has no byteLength to count; the tag, unlike `instanceof`, holds across realms.
      if (chunk.value[Symbol.toStringTag] !== 'Uint8Array') throw badFetch(this.scope, 'non-bytes');
      this.size += chunk.value.byteLength;
      if (this.size > this.scope.limits.maxResponseBytes) {
        throw tooLarge(this.response, this.scope, 'maxResponseBytes');
      }
      return chunk.value;
    } catch (error) {
      this.cancel();
      throw readFailure(error, this.response, this.scope);
    }
  }

  /** Stops reading and releases the connection (the rest of the body is never read). */
  cancel(): void {
    this.#reader?.cancel(STOPPED_READING).catch(() => undefined);
  }
}

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

/**
 * Merges the chunks held from `from` on into one once 256 are: a chunk costs ~200 bytes beside
 * its own, so a body sent a byte at a time would take 200 times its size. Gives where the next
 * merge starts (each byte is copied about once).
 */
export function compact(chunks: Uint8Array[], from: number): number {
  if (chunks.length - from < 256) return from;
  const newest = chunks.splice(from);
  const size = newest.reduce((sum, chunk) => sum + chunk.length, 0);
  chunks.push(concatChunks(newest, size));
  return from + 1;
}

export function tooLarge(
  response: Response,
  scope: CallScope,
  limit: keyof BodyLimits,
): ResponseTooLargeError {
  return new ResponseTooLargeError(scope.operation, limit, scope.limits[limit], response.status);
}

/** Reads the whole body as UTF-8 text within `maxResponseBytes`, failing as BoundedBodyReader. */
export async function readBodyText(response: Response, scope: CallScope): Promise<string> {
  const reader = new BoundedBodyReader(response, scope);
  const chunks: Uint8Array[] = [];
  let merged = 0;
  for (let chunk = await reader.read(); chunk; chunk = await reader.read()) {
    chunks.push(chunk);
    merged = compact(chunks, merged);
  }
  return reader.size === 0 ? '' : decoder.decode(concatChunks(chunks, reader.size));
}
