import {
  DECODE_LAYERS,
  decodedViews,
  decodeString,
  foldString,
  type MappedText,
  NAMED_REFERENCES,
  originalSpan,
} from './redact-view.js';

const REDACTED = '[redacted]';

/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error or a log line.
 */
export type Redactor = <T>(value: T) => T;

/** A very short "secret" would shred ordinary text; real keys and tokens are long. */
const MIN_SECRET_LENGTH = 4;

/**
 * Fragments: any run of at least this many consecutive characters of a secret's folded
 * form (see redact-view.ts) is removed. Twelve characters of a key or a base64 token are
 * 60+ bits, which ordinary text does not match by chance, and too few to replay.
 */
const MIN_FRAGMENT = 12;

/**
 * Length of the pieces the text is probed with. Every piece of this length of every
 * pattern is indexed, and the text is probed every `PROBE` characters, so any run of at
 * least `2 * PROBE - 1` (11 < 12) characters of a pattern contains a probe.
 */
const PROBE = 6;

/** Most places one probe text stands for in the patterns (a degenerate `%%%%…` secret). */
const MAX_PLACES = 8;

/**
 * Short secrets (an API key, up to this length) are also looked for whole by a pattern of
 * each character in any encoding, over the original text: there an escape without `;`
 * before a digit (`&#910`) or a stray `%0` before the secret cannot eat one of its
 * characters, which could leave a run too short to count as a fragment. Bounded in length
 * and number, so the pattern costs a bounded amount per position.
 */
const MAX_WHOLE_PATTERN = 64;
const MAX_WHOLE_SECRETS = 8;

/** Longest secret whose base64 and hex forms are also looked for. */
const MAX_ENCODED_SECRET = 1024;

/** A place in a pattern: the pattern and an offset in it. */
interface Place {
  pattern: string;
  offset: number;
}

/**
 * Every form a secret is looked for in the decoded views, folded: the secret, and its
 * decoded forms (a secret holding `%41` reads as `A` in a decoded view); reversed; hex of
 * its UTF-8 bytes; and its base64 at each of the three byte alignments (the characters
 * that depend on its bytes alone, so it is found inside any base64 text; base64url folds
 * to the same text).
 */
function patternsOf(secret: string): string[] {
  const forms = new Set<string>([secret]);
  let decoded = secret;
  for (let depth = 0; depth < DECODE_LAYERS; depth++) {
    decoded = decodeString(decoded);
    forms.add(decoded);
  }
  const patterns = [...forms, [...secret].reverse().join('')];
  if (secret.length <= MAX_ENCODED_SECRET) {
    const bytes = new TextEncoder().encode(secret);
    patterns.push(Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(''));
    patterns.push(...base64Cores(bytes));
  }
  return [...new Set(patterns)].filter((pattern) => pattern.length >= MIN_SECRET_LENGTH);
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * For each of the three byte alignments, the base64 characters that depend on the secret's
 * bytes alone: at most one character on each side (a few bits) mixes in its neighbours'.
 */
function base64Cores(bytes: Uint8Array): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const encoded = bytesToBase64(padded);
    cores.push(
      encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)),
    );
  }
  return cores;
}

/**
 * The patterns of a set of secrets, ready for a linear multi-pattern search: the long
 * ones (fragments count) by every probe-length piece, the short ones whole.
 */
interface SecretIndex {
  probes: Map<string, Place[]>;
  short: string[];
  /**
   * Short forms that fold to almost nothing (`+ -+`): looked for as they are (ASCII
   * letters lower-cased) in each decoded layer, not in the folded view. A long secret made
   * only of what the fold drops (1,500 `-`) carries nothing to look for and is left out.
   */
  literal: string[];
  /** The short secrets (see `MAX_WHOLE_PATTERN`), each character in any encoding. */
  whole: RegExp | undefined;
}

/**
 * For literal secrets: fullwidth forms as ASCII, ASCII letters lower-cased, a space and
 * `-` written `+` (forms write a space as `+`; base64url writes `+` as `-`), `_` written
 * `/`. Same length, so linear.
 */
const asciiLower = (text: string) =>
  text
    .replace(/[\uff01-\uff5e]/g, (wide) => String.fromCharCode(wide.charCodeAt(0) - 0xfee0))
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
    .replace(/[ -]/g, '+')
    .replace(/_/g, '/');

function buildIndex(secrets: readonly string[]): SecretIndex {
  const probes = new Map<string, Place[]>();
  const short = new Set<string>();
  const literal = new Set<string>();
  for (const form of secrets.flatMap(patternsOf)) {
    const pattern = foldString(form);
    if (pattern.length < MIN_SECRET_LENGTH) {
      if (form.length < MIN_FRAGMENT) literal.add(asciiLower(form));
    } else if (pattern.length < MIN_FRAGMENT) short.add(pattern);
    else indexPattern(probes, pattern);
  }
  const small = secrets
    .filter((secret) => secret.length <= MAX_WHOLE_PATTERN)
    .slice(0, MAX_WHOLE_SECRETS);
  const whole =
    small.length > 0 ? new RegExp(small.map(encodedPattern).join('|'), 'gi') : undefined;
  return { probes, short: [...short], literal: [...literal], whole };
}

/** Every probe-length piece of `pattern`, at most `MAX_PLACES` places per piece. */
function indexPattern(probes: Map<string, Place[]>, pattern: string): void {
  for (let offset = 0; offset + PROBE <= pattern.length; offset++) {
    const piece = pattern.slice(offset, offset + PROBE);
    const places = probes.get(piece);
    if (places === undefined) probes.set(piece, [{ pattern, offset }]);
    else if (places.length < MAX_PLACES) places.push({ pattern, offset });
  }
}

function namesByChar(): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const [name, char] of Object.entries(NAMED_REFERENCES)) {
    names.set(char, [...(names.get(char) ?? []), name]);
  }
  return names;
}

/**
 * The HTML named references of each character (HTML5 names for ASCII punctuation). Built by
 * a call marked pure, not a module-level loop, so a bundler can drop it when unused.
 */
const HTML_NAMED = /* @__PURE__ */ namesByChar();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

/**
 * Every way one character may be written in echoed text: itself, percent-encoded up to
 * three times over (any hex case; `+` for a space, as forms do), backslash-escaped, as
 * `\uXXXX`, `\xNN` or `\u{…}`, or as an HTML character reference (`;` optional). One
 * alternation per character, so a secret of n characters costs O(n) pattern, never 2^n
 * variants.
 */
function charPattern(char: string): string {
  // Letters and digits too: a hostile echo percent-encodes every character. Only short
  // secrets get this pattern (`MAX_WHOLE_PATTERN`), so its size stays small.
  const code = char.codePointAt(0) ?? 0;
  const bytes = new TextEncoder().encode(char);
  const percent = Array.from(bytes, (byte) => `%(?:25){0,3}${hex(byte, 2)}`).join('');
  const units = Array.from({ length: char.length }, (_, index) => char.charCodeAt(index));
  const json = units.map((unit) => `\\\\u${hex(unit, 4)}`).join('');
  const forms = [escapeRegExp(char), percent, json, `&#x0*${hex(code, 1)};?`, `&#0*${code};?`];
  // Backslash-escaped, as JSON writes `\"` and `\\` (and `\/`), and as shells and regexes do.
  forms.push(`\\\\${escapeRegExp(char)}`);
  // `\xNN` and `\u{…}` (JavaScript, Python), as the decoded views read them.
  if (code < 0x100) forms.push(`\\\\x${hex(code, 2)}`);
  forms.push(`\\\\u\\{0*${hex(code, 1)}\\}`);
  if (char === ' ') forms.push('\\+');
  const named = HTML_NAMED.get(char);
  // `;` optional: the legacy names (`&amp`) are read without it too.
  if (named !== undefined) forms.push(`&(?:${named.join('|')});?`);
  return `(?:${forms.join('|')})`;
}

/**
 * The pattern of a whole short secret, each character in any of its encodings: a short
 * secret's first character may melt into an escape with the text before it in a decoded
 * view (`%0` + `a…`), and it has no fragments to fall back on. At most `MIN_FRAGMENT` such
 * groups per secret, so the pattern stays small and linear.
 */
function encodedPattern(value: string): string {
  return Array.from(value, charPattern).join('');
}

/** How far left of `at` the text goes on as `place`'s pattern does, not before `floor`. */
function leftOf(view: string, at: number, place: Place, floor: number): number {
  const { pattern, offset } = place;
  let left = 0;
  while (
    at - left - 1 >= floor &&
    offset - left - 1 >= 0 &&
    view.charCodeAt(at - left - 1) === pattern.charCodeAt(offset - left - 1)
  ) {
    left++;
  }
  return at - left;
}

/** How far right the text goes on as `place`'s pattern does, from the probe at `at`. */
function rightOf(view: string, at: number, place: Place): number {
  const { pattern, offset } = place;
  let right = PROBE;
  while (
    at + right < view.length &&
    offset + right < pattern.length &&
    view.charCodeAt(at + right) === pattern.charCodeAt(offset + right)
  ) {
    right++;
  }
  return at + right;
}

/** The widest run of `place`'s pattern in `view` around the probe at `at`, not before `floor`. */
function runAt(view: string, at: number, place: Place, floor: number): [number, number] {
  return [leftOf(view, at, place, floor), rightOf(view, at, place)];
}

/**
 * A run found, grown past its ends: the last (first) probe-length piece of it plus the
 * next character is looked up again, because a degenerate secret (`AAAA…AEAAA`) has more
 * places for a piece than are indexed, and the one indexed may end the run too early.
 * Each step takes at least one more character, at a bounded cost: linear.
 */
function grow(view: string, run: [number, number], index: SecretIndex, floor: number): void {
  for (let moved = true; moved && run[1] < view.length; ) {
    const at = run[1] - PROBE + 1;
    moved = false;
    for (const place of index.probes.get(view.slice(at, at + PROBE)) ?? []) {
      const end = rightOf(view, at, place);
      if (end > run[1]) [run[1], moved] = [end, true];
    }
  }
  for (let moved = true; moved && run[0] > floor; ) {
    const at = run[0] - 1;
    moved = false;
    for (const place of index.probes.get(view.slice(at, at + PROBE)) ?? []) {
      const start = leftOf(view, at, place, floor);
      if (start < run[0]) [run[0], moved] = [start, true];
    }
  }
}

/** Original-text spans to remove: pairs [start, end). */
type Spans = number[];

function pushSpan(spans: Spans, view: MappedText, from: number, to: number): void {
  spans.push(...originalSpan(view, from, to));
}

/**
 * Every run of at least `MIN_FRAGMENT` characters of a long pattern in `view`. Probes every
 * `PROBE` characters; a run found is extended both ways (never back into the previous run)
 * and the scan resumes after it. A probe costs at most `MAX_PLACES` extensions, and an
 * extension past `MIN_FRAGMENT` is removed text that is not scanned again: linear in the
 * view, whatever the number or the shape of the secrets.
 */
function findRuns(view: MappedText, index: SecretIndex, spans: Spans): void {
  const text = view.text;
  let floor = 0;
  for (let at = 0; at + PROBE <= text.length; ) {
    const places = index.probes.get(text.slice(at, at + PROBE));
    let best: [number, number] = [at, at];
    for (const place of places ?? []) {
      const run = runAt(text, at, place, floor);
      if (run[1] - run[0] > best[1] - best[0]) best = run;
    }
    if (best[1] - best[0] < MIN_FRAGMENT) {
      at += PROBE;
      continue;
    }
    grow(text, best, index, floor);
    pushSpan(spans, view, best[0], best[1]);
    floor = best[1];
    at = best[1];
  }
}

/** Every occurrence of each of `patterns` in `view` (short ones: bounded work per place). */
function findAll(view: MappedText, text: string, patterns: readonly string[], spans: Spans): void {
  for (const pattern of patterns) {
    for (let at = text.indexOf(pattern); at >= 0; at = text.indexOf(pattern, at + 1)) {
      pushSpan(spans, view, at, at + pattern.length);
    }
  }
}

/**
 * The spans widened over the `+` and `-` right next to them, which the fold drops: a
 * fragment that starts or ends with the secret's `-` leaves no stray `-` behind. A run of
 * them is crossed by the spans on its two sides only (a few per view), so this is linear.
 */
function widen(text: string, spans: Spans): Spans {
  for (let pair = 0; pair < spans.length; pair += 2) {
    let start = spans[pair] ?? 0;
    let end = spans[pair + 1] ?? 0;
    while (start > 0 && isEdge(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isEdge(text.charCodeAt(end))) end++;
    spans[pair] = start;
    spans[pair + 1] = end;
  }
  return spans;
}

/** `+` and `-`: dropped by the fold, and part of base64 and keys (spaces are kept). */
const isEdge = (unit: number) => unit === 0x2b || unit === 0x2d;

/** Every match of a short secret's encoded pattern in the original text. */
function findWhole(text: string, pattern: RegExp, spans: Spans): void {
  for (const match of text.matchAll(pattern))
    spans.push(match.index, match.index + match[0].length);
}

/** `text` with the spans (merged where they overlap) replaced by `[redacted]`. */
function cut(text: string, spans: Spans): string {
  if (spans.length === 0) return text;
  const order = Array.from({ length: spans.length / 2 }, (_, pair) => pair).sort(
    (a, b) => (spans[2 * a] ?? 0) - (spans[2 * b] ?? 0),
  );
  let out = '';
  let done = 0;
  let start = -1;
  let end = -1;
  for (const pair of order) {
    const from = spans[2 * pair] ?? 0;
    const to = spans[2 * pair + 1] ?? 0;
    if (start >= 0 && from <= end) {
      end = Math.max(end, to);
      continue;
    }
    if (start >= 0) out += `${text.slice(done, start)}${REDACTED}`;
    done = Math.max(done, end);
    start = from;
    end = to;
  }
  return `${out}${text.slice(done, start)}${REDACTED}${text.slice(end)}`;
}

/**
 * `text` without any secret of `indexes`: each decoded view (up to three layers of
 * escapes) is searched for every pattern, and the original spans found are removed.
 */
function redactText(text: string, indexes: readonly SecretIndex[]): string {
  if (text.length < MIN_SECRET_LENGTH) return text;
  const spans: Spans = [];
  for (const { layer, view } of decodedViews(text)) {
    // Lower-cased once per view, only when some index has literal patterns to look for.
    let lowered: string | undefined;
    for (const index of indexes) {
      findRuns(view, index, spans);
      findAll(view, view.text, index.short, spans);
      if (index.literal.length === 0) continue;
      lowered ??= asciiLower(layer.text);
      findAll(layer, lowered, index.literal, spans);
    }
  }
  for (const index of indexes) if (index.whole !== undefined) findWhole(text, index.whole, spans);
  return cut(text, widen(text, spans));
}

function redactValue(value: unknown, indexes: readonly SecretIndex[]): unknown {
  if (typeof value === 'string') return redactText(value, indexes);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, indexes));
  if (value !== null && typeof value === 'object') {
    // Names too: a server may echo the key as an object member's name.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        redactText(key, indexes),
        redactValue(item, indexes),
      ]),
    );
  }
  return value;
}

/** The secrets worth looking for: long enough, once each. */
function realSecrets(secrets: readonly (string | undefined)[]): string[] {
  return [
    ...new Set(
      secrets.filter((secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH),
    ),
  ];
}

/** A redactor over prebuilt indexes (a connection's secrets, plus one call's own). */
function redactorOf(indexes: readonly SecretIndex[]): Redactor {
  const used = indexes.filter(
    (index) =>
      index.probes.size > 0 ||
      index.short.length > 0 ||
      index.literal.length > 0 ||
      index.whole !== undefined,
  );
  if (used.length === 0) return (value) => value;
  return <T>(value: T): T => redactValue(value, used) as T;
}

/**
 * Builds a redactor that replaces each secret (the API key, a bearer token, a payment
 * credential) in strings and member names, deeply, in every form a server or proxy may
 * echo it. The text is read through up to three layers of escapes (percent-encoding of any
 * character, with `+` for a space; HTML references, numeric with or without `;` and named;
 * backslash escapes `\xNN`, `\uNNNN`, `\u{…}`, `\/`, `\\`, `\"`), with letter case,
 * fullwidth forms, whitespace, `+`, `-`, `_`/`/` and invisible characters (soft hyphen,
 * zero-width) folded away. In that view, the secret is found whole, reversed, as hex, as
 * base64/base64url inside any base64 text, and as any run of at least 12 consecutive
 * characters of those forms. Missing and very short secrets are ignored. Time is linear in
 * the text, whatever the number and shape of the secrets.
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

/** The redactor of each paid call's answer, by the answer object (see {@link markAnswer}). */
const answerRedactors = new WeakMap<object, Redactor>();

/**
 * Marks `answer` (a parsed answer object) with its call's own redactor, which knows the
 * payment credential that call sent: whatever is later made from the answer (tool output,
 * model text) is redacted with it, however many other credentials were sent meanwhile.
 */
export function markAnswer<T>(answer: T, redact: Redactor | undefined): T {
  if (redact !== undefined && answer !== null && typeof answer === 'object') {
    answerRedactors.set(answer, redact);
  }
  return answer;
}

/**
 * The own redactors of the answers in `value`: `value` itself and its direct members (a
 * tool's output holds the client's answer, `{ request, response }`).
 */
export function answerRedactorsIn(value: unknown): Redactor[] {
  if (value === null || typeof value !== 'object') return [];
  const own = answerRedactors.get(value);
  if (own !== undefined) return [own];
  const found = new Set<Redactor>();
  for (const member of Object.values(value)) {
    const redact =
      member !== null && typeof member === 'object' ? answerRedactors.get(member) : undefined;
    if (redact !== undefined) found.add(redact);
  }
  return [...found];
}

/**
 * The secret part of an `Authorization` value: `Payment eyJ…` gives `eyJ…` (the scheme is
 * public, and text saying `Payment` must stay readable); a value without a scheme is kept.
 */
export function credentialToken(value: string): string {
  const match = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+(\S.*)$/.exec(value.trim());
  return match?.[1] ?? value.trim();
}
