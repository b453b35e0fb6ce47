import { StoreUnavailableError } from '@catalogkit/core';

/** Longest client message kept in an error: enough for a reason, never a whole command. */
const MAX_DETAIL_CHARS = 200;
/** Of a message's first line, only this much is looked at (and redacted) at all. */
const MAX_SCANNED_CHARS = 1_000;
/** Shorter strings are command words and numbers, not keys or values worth hiding. */
const MIN_SECRET_CHARS = 4;
/**
 * Any run of this many characters of a secret is hidden: a server or proxy may echo a
 * secret cut short (redis-server shows 128 characters of each argument) or cut in two.
 */
const SECRET_RUN_CHARS = 12;
/** Of each argument sent, only the start is looked for: echoes show the start, if anything. */
const MAX_ARGUMENT_CHARS = 256;

/** A Node-style error code such as `ECONNREFUSED`: safe to show. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;
/** An error class name such as `ReplyError`: safe to show. */
const CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,60}$/;
/** The code word a Redis error reply starts with (`WRONGTYPE`, `ERR`, `NOAUTH`, ...). */
const REPLY_CODE = /^([A-Z]{2,20})(?:\s|$)/;
/**
 * Errors whose message is text the server (or whatever answers in its place) sent: Redis
 * error replies (ioredis `ReplyError`, node-redis `ErrorReply`, `SimpleError`,
 * `BlobError`), protocol errors quoting the bytes received (`ParserError`), and every
 * Upstash error (the body of the HTTP answer).
 */
const SERVER_TEXT_CLASS = /Reply|^SimpleError$|^BlobError$|^ParserError$|^Upstash/;

/**
 * Client errors that mean the command was never written: node-redis's offline and closed
 * client, and ioredis refusing to queue (`enableOfflineQueue: false`).
 */
const NOT_SENT_CLASS = /^(?:ClientOfflineError|ClientClosedError)$/;
const NOT_SENT_MESSAGE = "Stream isn't writeable";

interface ClientErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  constructor?: { name?: unknown };
}

function shapeOf(error: unknown): ClientErrorShape {
  return typeof error === 'object' && error !== null ? (error as ClientErrorShape) : {};
}

/** The error's class: `name`, or the constructor's name where `name` was left as `Error`. */
function className(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'Error';
  const shape = error as ClientErrorShape;
  const candidates = [shape.name, shape.constructor?.name];
  const named = candidates.find(
    (name): name is string => typeof name === 'string' && name !== 'Error' && CLASS_NAME.test(name),
  );
  return named ?? 'Error';
}

/**
 * Whether the error is an answer of the server (an error reply): the server is up, and
 * refused the command, so it changed nothing.
 * @internal
 */
export function isServerReply(error: unknown): boolean {
  return SERVER_TEXT_CLASS.test(className(error));
}

/** Whether the client says it never wrote the command (so it cannot land later). */
function neverWritten(error: unknown): boolean {
  const message = shapeOf(error).message;
  return (
    NOT_SENT_CLASS.test(className(error)) ||
    (typeof message === 'string' && message.startsWith(NOT_SENT_MESSAGE))
  );
}

/** Every form in which a secret may be echoed: as is, URL-encoded, JSON-escaped, base64. */
export function secretForms(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  try {
    const encoded = encodeURIComponent(secret);
    forms.push(
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    );
  } catch {
    // A lone surrogate cannot be URL-encoded, so it cannot be echoed that way either.
  }
  const bytes = new TextEncoder().encode(secret);
  forms.push(btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join('')));
  return forms;
}

/**
 * Replaces every run of {@link SECRET_RUN_CHARS} or more characters of any form of any
 * secret (the whole of a shorter one) with `[redacted]`. `text` is at most
 * {@link MAX_SCANNED_CHARS} long, so this takes time proportional to the secrets' length.
 */
function redactRuns(text: string, forms: readonly string[]): string {
  const hidden = new Uint8Array(text.length);
  for (const form of forms) {
    const size = Math.min(SECRET_RUN_CHARS, form.length);
    if (size < MIN_SECRET_CHARS) continue;
    for (let start = 0; start + size <= form.length; start++) {
      const piece = form.slice(start, start + size);
      for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
        hidden.fill(1, at, at + size);
      }
    }
  }
  let out = '';
  for (let index = 0; index < text.length; index++) {
    if (hidden[index] === 0) out += text[index];
    else if (index === 0 || hidden[index - 1] === 0) out += '[redacted]';
  }
  return out;
}

/**
 * A client's own message (not the server's), cleaned: the first line, with the command it
 * may quote cut off, credentials in a URL or a bearer header replaced, and every run of a
 * secret or of a sent argument hidden.
 */
function clientText(error: unknown, forms: readonly string[]): string {
  const shape = shapeOf(error);
  let text = typeof shape.message === 'string' ? shape.message : String(error);
  text = (text.split('\n', 1)[0] ?? '').slice(0, MAX_SCANNED_CHARS);
  for (const echo of [', command was:', 'with args beginning with:']) {
    const at = text.indexOf(echo);
    if (at >= 0) text = text.slice(0, at);
  }
  text = text
    .replace(/\/\/[^\s/@]*@/g, '//[redacted]@')
    .replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
  return redactRuns(text, forms).slice(0, MAX_DETAIL_CHARS);
}

/** Of a server's text, only its error code word, and only if no secret is in it. */
function replyCode(error: unknown, forms: readonly string[]): string {
  const message = shapeOf(error).message;
  const code = typeof message === 'string' ? REPLY_CODE.exec(message)?.[1] : undefined;
  return code !== undefined && redactRuns(code, forms) === code ? code : '';
}

/** What the store knows about one failed command. @internal */
export interface FailedCommand {
  /** The operation, e.g. `SET NX`. */
  operation: string;
  /** The arguments sent: keys, values, lock owners (hidden wherever echoed). */
  sent: readonly string[];
  /** The client's password or token, each in every form (see {@link secretForms}). */
  secrets: readonly string[];
  /** Whether the command changes data: then a failure does not prove it was not applied. */
  write: boolean;
}

/**
 * Wraps a client failure as a {@link StoreUnavailableError} naming the store. The message
 * holds the client error's class name, a Node error code, and either the client's own
 * reason (cleaned, see {@link clientText}) or, for text the server sent (an error reply, an
 * HTTP body), only the Redis error code it starts with: a server or a proxy in front of it
 * may echo the command's values or the token in any form, so none of its text is kept. The
 * `cause` is a copy holding the same, never the original (which can hold the command).
 * @internal
 */
export function unavailable(
  storeName: string,
  error: unknown,
  failed: FailedCommand,
): StoreUnavailableError {
  if (StoreUnavailableError.is(error)) return error;
  const forms = [
    ...failed.secrets,
    ...failed.sent
      .filter((argument) => argument.length >= MIN_SECRET_CHARS)
      .map((argument) => argument.slice(0, MAX_ARGUMENT_CHARS)),
  ];
  const name = className(error);
  const rawCode = shapeOf(error).code;
  const code = typeof rawCode === 'string' && ERROR_CODE.test(rawCode) ? rawCode : undefined;
  const server = isServerReply(error);
  const text = server ? replyCode(error, forms) : clientText(error, forms);
  const cause = Object.assign(new Error(text), { name }, code === undefined ? {} : { code });
  let reason = text === '' ? name : `${name}: ${text}`;
  if (code !== undefined && !text.includes(code)) reason += ` (${code})`;
  // A refusal by the server changed nothing, nor did a command never written; any other
  // failure may have come after sending.
  const note = failed.write && !server && !neverWritten(error) ? '; it may have been applied' : '';
  return new StoreUnavailableError(storeName, `${failed.operation} failed: ${reason}${note}`, {
    cause,
  });
}

/**
 * The store answered something the command cannot return: a misbehaving proxy, or a client
 * set up to transform replies. The message names the shape, never the value.
 * @internal
 */
export function wrongAnswer(
  storeName: string,
  operation: string,
  expected: string,
  reply: unknown,
  write = false,
): StoreUnavailableError {
  const got = reply === null ? 'null' : Array.isArray(reply) ? 'an array' : typeof reply;
  const note = write ? '; it may have been applied' : '';
  return new StoreUnavailableError(
    storeName,
    `${operation} answered wrongly: expected ${expected}, got ${got}${note}`,
  );
}
