const REDACTED = '[redacted]';

/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error or a log line.
 */
export type Redactor = <T>(value: T) => T;

/** A very short "secret" would shred ordinary text; real keys and tokens are long. */
const MIN_SECRET_LENGTH = 4;

/**
 * Fragments: a secret of at least two chunks is also cut into chunks of this many
 * characters, and every chunk found in text is removed together with the characters around
 * it that continue the secret. So any run of at least `2 * FRAGMENT_CHUNK - 1` consecutive
 * characters of a secret (in any letter case) is removed whole, wherever it starts: a
 * detail cut short (`eyJjaGFsbGVuZ2Ui…`) or the signature half of a credential. Twelve
 * characters are 72 bits of a base64 token, so ordinary text never matches one by chance;
 * a shorter run of a credential hundreds of characters long cannot be replayed. (A secret
 * over 1,536 characters gets chunks of length/128, so runs of twice that are removed.)
 */
const FRAGMENT_CHUNK = 12;

/**
 * Most chunks per secret: a longer secret gets longer chunks, since an alternation of more
 * literals is tried one by one at every position of the text.
 */
const MAX_CHUNKS = 128;

/** Longest secret whose base64 forms are looked for (a credential is rarely re-encoded). */
const MAX_BASE64_SECRET = 1024;

/** How many places of a secret one chunk text may stand for (a degenerate `aaaa…` key). */
const MAX_CHUNK_PLACES = 4;

const HTML_NAMED: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&(?:apos|#39);',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

/**
 * Every way one character other than a letter or digit may be written in echoed text:
 * itself, percent-encoded once or twice (any hex case; `+` for a space, as forms do),
 * backslash-escaped or as a JSON `\uXXXX` escape, or as an HTML character reference. One
 * alternation per character, so a secret of n characters costs O(n) pattern, never 2^n
 * variants.
 */
function charPattern(char: string): string {
  // Encoders leave letters and digits alone, so they stand for themselves: this keeps a
  // long base64url credential's pattern nearly a plain literal that compiles natively.
  if (/^[A-Za-z0-9]$/.test(char)) return char;
  const code = char.codePointAt(0) ?? 0;
  const bytes = new TextEncoder().encode(char);
  const percent = Array.from(bytes, (byte) => `%(?:25)?${hex(byte, 2)}`).join('');
  const units = Array.from({ length: char.length }, (_, index) => char.charCodeAt(index));
  const json = units.map((unit) => `\\\\u${hex(unit, 4)}`).join('');
  const forms = [escapeRegExp(char), percent, json, `&#x0*${hex(code, 1)};`, `&#0*${code};`];
  // Backslash-escaped, as JSON writes `\"` and `\\` (and `\/`), and as shells and regexes do.
  forms.push(`\\\\${escapeRegExp(char)}`);
  if (char === ' ') forms.push('\\+');
  const named = HTML_NAMED[char];
  if (named !== undefined) forms.push(named);
  return `(?:${forms.join('|')})`;
}

/** The pattern of a whole value, each character in any of its encodings. */
function encodedPattern(value: string): string {
  return Array.from(value, charPattern).join('');
}

/** The base64 alphabet's two symbols match their base64url twins and their encodings. */
function base64CharPattern(char: string): string {
  if (char === '+') return '(?:\\+|-|%(?:25)?2b)';
  if (char === '/') return '(?:/|_|\\\\/|%(?:25)?2f)';
  return char;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The base64 (and base64url) forms of a secret inside any base64 text: for each of the
 * three byte alignments, the characters that depend on the secret's bytes alone. At most
 * one character on each side (a few bits) stays, since it mixes in the neighbours' bits.
 */
function base64Patterns(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const patterns: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const encoded = bytesToBase64(padded);
    const core = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6),
    );
    if (core.length >= MIN_SECRET_LENGTH)
      patterns.push(Array.from(core, base64CharPattern).join(''));
  }
  return patterns;
}

/** Where a chunk of text sits in the secrets: the secret and the chunk's offset in it. */
interface ChunkPlace {
  secret: string;
  offset: number;
  /** The chunk's length: `FRAGMENT_CHUNK`, longer for secrets of over 128 chunks. */
  size: number;
}

/** The chunk length of `secret`. */
const chunkSize = (secret: string) =>
  Math.max(FRAGMENT_CHUNK, Math.ceil(secret.length / MAX_CHUNKS));

/** The chunks of every secret long enough for fragments, by lower-cased chunk text. */
function chunkPlaces(secrets: readonly string[]): Map<string, ChunkPlace[]> {
  const places = new Map<string, ChunkPlace[]>();
  for (const secret of secrets) {
    if (secret.length < 2 * FRAGMENT_CHUNK) continue;
    const size = chunkSize(secret);
    for (let offset = 0; offset + size <= secret.length; offset += size) {
      const chunk = secret.slice(offset, offset + size).toLowerCase();
      const list = places.get(chunk) ?? [];
      if (list.length < MAX_CHUNK_PLACES) list.push({ secret, offset, size });
      places.set(chunk, list);
    }
  }
  return places;
}

const sameChar = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && (a === b || a.toLowerCase() === b.toLowerCase());

/** How far a chunk found at [start, end) extends as `place` continues, left and right. */
function extendAt(
  text: string,
  start: number,
  end: number,
  place: ChunkPlace,
  floor: number,
): [number, number] {
  let left = 0;
  while (
    start - left - 1 >= floor &&
    place.offset - left - 1 >= 0 &&
    sameChar(text[start - left - 1], place.secret[place.offset - left - 1])
  ) {
    left++;
  }
  let right = 0;
  const after = place.offset + place.size;
  while (
    end + right < text.length &&
    after + right < place.secret.length &&
    sameChar(text[end + right], place.secret[after + right])
  ) {
    right++;
  }
  return [start - left, end + right];
}

/** The widest run of a secret around a chunk found at [start, end), not before `floor`. */
function widestRun(
  text: string,
  start: number,
  end: number,
  places: readonly ChunkPlace[],
  floor: number,
): [number, number] {
  let best: [number, number] = [start, end];
  for (const place of places) {
    const run = extendAt(text, start, end, place, floor);
    if (run[1] - run[0] > best[1] - best[0]) best = run;
  }
  return best;
}

/** One secret compiled: one pattern for every form, and its chunks for fragments. */
interface Compiled {
  pattern: RegExp;
  chunks: Map<string, ChunkPlace[]>;
}

/**
 * One pattern per secret, not one for all: a pattern past a few thousand nodes runs in
 * V8's bytecode interpreter, many times slower, so each secret gets its own native pass.
 */
function compile(secret: string): Compiled {
  // A secret too long for its base64 forms to compile natively keeps only its other forms.
  const base64 = secret.length <= MAX_BASE64_SECRET ? base64Patterns(secret) : [];
  const whole = [encodedPattern(secret), ...base64];
  const chunks = chunkPlaces([secret]);
  // Whole forms first: where a whole secret starts, it is taken whole, not as a chunk.
  const fragment = chunks.size > 0 ? [`(${[...chunks.keys()].map(escapeRegExp).join('|')})`] : [];
  return { pattern: new RegExp([...whole, ...fragment].join('|'), 'gi'), chunks };
}

/**
 * One left-to-right pass: every match is replaced, a chunk together with the run of its
 * secret around it. Each extension only covers text no earlier match took, and the scan
 * resumes after it, so the work stays linear in the text.
 */
function redactPass(text: string, { pattern, chunks }: Compiled): string {
  pattern.lastIndex = 0;
  let out = '';
  let done = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    let start = match.index;
    let end = start + match[0].length;
    const chunk = match[1];
    if (chunk !== undefined) {
      [start, end] = widestRun(text, start, end, chunks.get(chunk.toLowerCase()) ?? [], done);
    }
    out += `${text.slice(done, start)}${REDACTED}`;
    done = end;
    pattern.lastIndex = end;
  }
  return done === 0 ? text : out + text.slice(done);
}

/** Every secret's pass in turn, longest secret first: linear in the text for a fixed set. */
function redactText(text: string, compiled: readonly Compiled[]): string {
  let out = text;
  for (const secret of compiled) out = redactPass(out, secret);
  return out;
}

function redactValue(value: unknown, compiled: readonly Compiled[]): unknown {
  if (typeof value === 'string') return redactText(value, compiled);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, compiled));
  if (value !== null && typeof value === 'object') {
    // Names too: a server may echo the key as an object member's name.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        redactText(key, compiled),
        redactValue(item, compiled),
      ]),
    );
  }
  return value;
}

/**
 * Builds a redactor that replaces each secret (the API key, a bearer token, a payment
 * credential) in strings and member names, deeply, in every form a server or proxy may
 * echo it: any letter case; percent-encoded (`encodeURIComponent`, form encoding, twice);
 * JSON and HTML escapes; base64 and base64url of it inside any base64 text; and any run of
 * at least 23 consecutive characters of it (see `FRAGMENT_CHUNK`). Missing and very short
 * secrets are ignored. The text is scanned once, in time linear in its length.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  const real = [
    ...new Set(
      secrets.filter((secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH),
    ),
  ]
    // Longest first, so a secret that contains another is still removed whole.
    .sort((a, b) => b.length - a.length);
  if (real.length === 0) return (value) => value;
  const compiled = real.map(compile);
  return <T>(value: T): T => redactValue(value, compiled) as T;
}

/** How many recent payment credentials stay secrets for `redact` (model text, logs). */
const RECENT_CREDENTIALS = 4;
/** How many bearer tokens' redactors are kept built (a session's token lasts many turns). */
const CACHED_TOKENS = 8;

/**
 * The secrets one connection sends: its API key for good, and each payment credential
 * from the moment it is handed to fetch. The latest credentials stay secrets for every
 * later redaction (a paid answer may echo one into text a model reads); a call's own
 * credential stays one for that call's errors, however many other calls paid meanwhile.
 * Memory is bounded: a fixed number of recent credentials and cached token redactors.
 */
export class SentSecrets {
  readonly #apiKey: string | undefined;
  readonly #recent: string[] = [];
  #redactor: Redactor;
  readonly #byToken = new Map<string, Redactor>();

  constructor(apiKey: string | undefined) {
    this.#apiKey = apiKey;
    this.#redactor = createRedactor(apiKey);
  }

  /** Redacts the key and the recent credentials. */
  readonly redact: Redactor = (value) => this.#redactor(value);

  /** Makes `credential` (an `Authorization` value, e.g. `Payment eyJ…`) a secret. */
  add(credential: string): void {
    const token = credentialToken(credential);
    if (this.#recent.includes(token)) return;
    this.#recent.push(token);
    if (this.#recent.length > RECENT_CREDENTIALS) this.#recent.shift();
    this.#redactor = createRedactor(this.#apiKey, ...this.#recent);
    this.#byToken.clear();
  }

  /** A redactor that also removes `extra` secrets (a bearer token, a call's credential). */
  with(...extra: (string | undefined)[]): Redactor {
    const given = extra.filter((secret): secret is string => secret !== undefined);
    if (given.length === 0) return this.redact;
    const key = given.join('\n');
    const cached = this.#byToken.get(key);
    if (cached !== undefined) return cached;
    const built = createRedactor(this.#apiKey, ...this.#recent, ...given);
    if (this.#byToken.size >= CACHED_TOKENS) this.#byToken.clear();
    this.#byToken.set(key, built);
    return built;
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
