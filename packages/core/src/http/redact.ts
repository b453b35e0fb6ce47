const REDACTED = '[redacted]';

/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error or a log line.
 */
export type Redactor = <T>(value: T) => T;

/** A very short "secret" would shred ordinary text; real keys and tokens are long. */
const MIN_SECRET_LENGTH = 4;

/** The few named references an HTML echo uses for characters of a key or token. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  plus: '+',
  sol: '/',
  equals: '=',
  lowbar: '_',
  hyphen: '-',
  period: '.',
  colon: ':',
  num: '#',
  percnt: '%',
  excl: '!',
};

/** One escape at `at`: its decoded character and its length, or undefined. */
function escapeAt(text: string, at: number): [string, number] | undefined {
  const c = text[at];
  if (c === '%') {
    const m = /^%([0-9a-f]{2})/i.exec(text.slice(at, at + 3));
    return m ? [String.fromCharCode(Number.parseInt(m[1] ?? '', 16)), 3] : undefined;
  }
  if (c === '\\') {
    // JSON escapes: `\/`, `\\`, `\"` stand for one character, `\uXXXX` for any.
    const next = text[at + 1] ?? '';
    if (next === '/' || next === '\\' || next === '"') return [next, 2];
    const m = /^\\u([0-9a-f]{4})/i.exec(text.slice(at, at + 6));
    return m ? [String.fromCharCode(Number.parseInt(m[1] ?? '', 16)), 6] : undefined;
  }
  if (c === '&') {
    // Bounded look-ahead: a reference is at most 10 characters, so the pass stays linear.
    const m = /^&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/i.exec(text.slice(at, at + 11));
    if (!m) return undefined;
    const body = (m[1] ?? '').toLowerCase();
    const code = body.startsWith('#x')
      ? Number.parseInt(body.slice(2), 16)
      : body.startsWith('#')
        ? Number.parseInt(body.slice(1), 10)
        : undefined;
    const char =
      code === undefined ? NAMED[body] : code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
    return char === undefined ? undefined : [char, m[0].length];
  }
  return undefined;
}

/** Lower case for the ASCII letters only, so the view keeps one unit per decoded unit. */
function lowerAscii(view: string): string {
  const lowered = view.toLowerCase();
  return lowered.length === view.length ? lowered : view.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * A lower-cased copy of `text` with percent, `\uXXXX` and HTML escapes decoded one
 * character at a time (so mixed forms match), and where each decoded unit began. Plain
 * runs are copied whole, so text without escapes costs one scan.
 */
function decode(text: string): { view: string; starts: Int32Array } {
  const pieces: string[] = [];
  const starts = new Int32Array(text.length + 1);
  let length = 0;
  let at = 0;
  const escapes = /[%\\&]/g;
  while (at < text.length) {
    escapes.lastIndex = at;
    const next = escapes.exec(text)?.index ?? text.length;
    pieces.push(text.slice(at, next));
    for (let i = at; i < next; i++) starts[length++] = i;
    at = next;
    if (at >= text.length) break;
    const [char, size] = escapeAt(text, at) ?? [text[at] ?? '', 1];
    pieces.push(char);
    for (let k = 0; k < char.length; k++) starts[length++] = at;
    at += size;
  }
  starts[length] = text.length;
  return { view: lowerAscii(pieces.join('')), starts };
}

/** Base64 and base64url of `secret`, with and without padding. */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const standard = btoa(binary);
  const unpadded = standard.replace(/=+$/, '');
  return [standard, unpadded.replaceAll('+', '-').replaceAll('/', '_')];
}

/** The literal forms looked for in the decoded, lower-cased view, longest first. */
function formsOf(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // `+` for a space (a query string) is a literal form: decoding `+` would hide a real `+`.
    for (const form of [secret, secret.replaceAll(' ', '+'), ...base64Forms(secret)]) {
      forms.add(form.toLowerCase());
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of any form (in any of the escapes above) replaced. */
function redactText(text: string, forms: readonly string[]): string {
  if (forms.length === 0 || text.length < MIN_SECRET_LENGTH) return text;
  const { view, starts } = decode(text);
  const spans: [number, number][] = [];
  for (const form of forms) {
    for (let at = view.indexOf(form); at !== -1; at = view.indexOf(form, at + form.length)) {
      spans.push([starts[at] ?? 0, starts[at + form.length] ?? text.length]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  for (const [from, to] of spans) {
    if (to <= done) continue;
    if (from >= done) out += text.slice(done, from) + REDACTED;
    done = to;
  }
  return out + text.slice(done);
}

/** An array or an object literal: what JSON answers are made of, and all that is rebuilt. */
function isPlainContainer(value: unknown): value is unknown[] | Record<string, unknown> {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Redacts strings and member names, deeply (a server may echo a key as a member name).
 * Only arrays and object literals are rebuilt (a class instance is the application's own);
 * an object met again inside itself is kept as it is, so cycles end.
 */
function redactValue(value: unknown, forms: readonly string[], open = new Set<object>()): unknown {
  if (typeof value === 'string') return redactText(value, forms);
  if (!isPlainContainer(value) || open.has(value)) return value;
  open.add(value);
  const copy = Array.isArray(value)
    ? value.map((item) => redactValue(item, forms, open))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          redactText(key, forms),
          redactValue(item, forms, open),
        ]),
      );
  open.delete(value);
  return copy;
}

/**
 * Replaces every echo of `secrets` in `text`: as written, in any letter case,
 * percent-encoded (any characters, `+` for a space), JSON `\uXXXX`-escaped, HTML-escaped
 * (named, decimal, hex references), and base64 / base64url of the secret alone. Linear in
 * the text for a fixed set of secrets; secrets shorter than 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return redactText(text, formsOf(realSecrets(secrets)));
}

/** Whether `text` echoes any of `secrets` in a form {@link redactSecrets} removes. */
export function findSecretEchoes(text: string, secrets: readonly (string | undefined)[]): boolean {
  return redactSecrets(text, secrets) !== text;
}

/** The secrets worth looking for: long enough, once each. */
function realSecrets(secrets: readonly (string | undefined)[]): string[] {
  return [
    ...new Set(
      secrets.filter((secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH),
    ),
  ];
}

type SecretIndex = readonly string[];
const buildIndex = formsOf;

/** A redactor over prebuilt form lists (a connection's secrets, plus one call's own). */
function redactorOf(indexes: readonly SecretIndex[]): Redactor {
  const forms = indexes.flat();
  if (forms.length === 0) return (value) => value;
  return <T>(value: T): T => redactValue(value, forms) as T;
}

/**
 * Builds a redactor that replaces each secret (the API key, a bearer token, a payment
 * credential) in strings and member names, deeply, in the forms {@link redactSecrets}
 * covers. Missing and very short secrets are ignored.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  return redactorOf([buildIndex(realSecrets(secrets))]);
}

/**
 * How long a payment credential stays a secret for `redact` (model text, logs) after it
 * was sent, and the most kept at once: many paid calls may overlap, and an answer read
 * minutes later may echo one. Matching stays linear whatever their number.
 */
const CREDENTIAL_WINDOW_MS = 1_800_000; // 30 minutes (a literal: a bundler keeps arithmetic)
const MAX_CREDENTIALS = 256;
/** How many bearer tokens' redactors are kept built (a session's token lasts many turns). */
const CACHED_TOKENS = 8;

/**
 * The secrets one connection sends: its API key for good, and each payment credential
 * from the moment it is handed to fetch. Credentials stay secrets for every later
 * redaction for `CREDENTIAL_WINDOW_MS` (a paid answer may echo one into text a model
 * reads); a call's own credential stays one for that call, however many other calls paid
 * meanwhile. Memory is bounded: at most `MAX_CREDENTIALS` credentials and a few cached
 * token redactors.
 */
export class SentSecrets {
  readonly #apiKey: string | undefined;
  /** Credential tokens by the time they were sent (insertion order: oldest first). */
  readonly #recent = new Map<string, number>();
  #index: SecretIndex | undefined;
  readonly #byToken = new Map<string, SecretIndex>();

  constructor(apiKey: string | undefined) {
    this.#apiKey = apiKey;
  }

  /** Redacts the key and the credentials sent lately. */
  readonly redact: Redactor = (value) => redactorOf([this.#current()])(value);

  /** Makes `credential` (an `Authorization` value, e.g. `Payment eyJ…`) a secret. */
  add(credential: string): void {
    const token = credentialToken(credential);
    this.#expire();
    if (this.#recent.has(token)) return;
    this.#recent.set(token, Date.now());
    if (this.#recent.size > MAX_CREDENTIALS) {
      const oldest = this.#recent.keys().next().value;
      if (oldest !== undefined) this.#recent.delete(oldest);
    }
    this.#index = undefined;
  }

  /** A redactor that also removes `extra` secrets (a bearer token, a call's credential). */
  with(...extra: (string | undefined)[]): Redactor {
    const given = realSecrets(extra);
    if (given.length === 0) return this.redact;
    const key = given.join('\n');
    let own = this.#byToken.get(key);
    if (own === undefined) {
      own = buildIndex(given);
      if (this.#byToken.size >= CACHED_TOKENS) this.#byToken.clear();
      this.#byToken.set(key, own);
    }
    const extraIndex = own;
    return (value) => redactorOf([this.#current(), extraIndex])(value);
  }

  /** The index of the key and the live credentials, rebuilt only when they changed. */
  #current(): SecretIndex {
    this.#expire();
    this.#index ??= buildIndex(realSecrets([this.#apiKey, ...this.#recent.keys()]));
    return this.#index;
  }

  /** Forgets credentials sent longer ago than the window. */
  #expire(): void {
    const oldest = Date.now() - CREDENTIAL_WINDOW_MS;
    for (const [token, sentAt] of this.#recent) {
      if (sentAt > oldest) break;
      this.#recent.delete(token);
      this.#index = undefined;
    }
  }
}

/**
 * The secret part of an `Authorization` value: `Payment eyJ…` gives `eyJ…` (the scheme is
 * public, and text saying `Payment` must stay readable); a value without a scheme is kept.
 */
export function credentialToken(value: string): string {
  const match = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+(\S.*)$/.exec(value.trim());
  return match?.[1] ?? value.trim();
}
