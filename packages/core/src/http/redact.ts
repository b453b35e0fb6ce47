/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error, a log line or what a model reads.
 */
export type Redactor = <T>(value: T) => T;

const REDACTED = '[redacted]';
/** A very short "secret" would shred ordinary text; real keys and tokens are long. */
const MIN_SECRET_LENGTH = 4;
/** A name of 2 to 6 lower-case letters as a number (base 32); -1 if not one. */
function nameKey(units: ArrayLike<number>, from: number, to: number): number {
  let key = to - from >= 2 && to - from <= 6 ? 0 : -1;
  for (let i = from; i < to && key >= 0; i++) {
    const letter = (units[i] ?? 0) - 96;
    key = letter >= 1 && letter <= 26 ? key * 32 + letter : -1;
  }
  return key;
}
/** HTML's named references of ASCII punctuation (each name, then its character), by key. */
let named: Map<number, number> | undefined; // built at first use: module code stays pure
const NAMES =
  'amp& lt< gt> quot" apos\' plus+ sol/ bsol\\ equals= lowbar_ hyphen- period. colon: semi; comma, num# percnt% excl! quest? commat@ dollar$ ast* lpar( rpar) lsqb[ rsqb] lcub{ rcub} verbar| grave` hat^ tilde~';

/** The value of a lower-case hex digit; -1 if `unit` is not one. */
function digitOf(unit: number): number {
  return unit >= 48 && unit <= 57 ? unit - 48 : unit >= 97 && unit <= 102 ? unit - 87 : -1;
}

/** The number `units[from, to)` spell in `base` (lower-case hex, or 10); -1 if none. */
function numberIn(units: Uint16Array, from: number, to: number, base = 16): number {
  let value = to > from ? 0 : -1;
  for (let i = from; i < to && value >= 0; i++) {
    const digit = digitOf(units[i] ?? 0);
    value = digit < 0 || digit >= base ? -1 : value * base + digit;
  }
  return value;
}

/**
 * The escape `units[0, top)` ends with (`%2f`, `\u002f`, `&#x2f;`, `&#47;`, `&sol;`), as
 * its length × 0x10000 + the unit it stands for; -1 if none.
 */
function escapeEnding(units: Uint16Array, top: number): number {
  const percent = units[top - 3] === 37 ? numberIn(units, top - 2, top) : -1;
  if (percent >= 0) return 3 * 0x10000 + percent;
  const json = units[top - 6] === 92 && units[top - 5] === 117 ? numberIn(units, top - 4, top) : -1;
  if (json >= 0) return 6 * 0x10000 + json;
  // A reference: the nearest `&`, at most 7 back (`&#x` and 4 hex digits, `&#` and 5, a name).
  for (let amp = top - 2; units[top - 1] === 59 && amp >= Math.max(0, top - 8); amp--) {
    if (units[amp] !== 38) continue;
    const hex = units[amp + 2] === 120 ? 1 : 0;
    const unit =
      units[amp + 1] === 35
        ? numberIn(units, amp + 2 + hex, top - 1, hex ? 16 : 10)
        : (namedReference(nameKey(units, amp + 1, top - 1)) ?? -1);
    return unit >= 0 && unit <= 0xffff ? (top - amp) * 0x10000 + unit : -1;
  }
  return -1;
}

function namedReference(key: number): number | undefined {
  named ??= new Map(
    NAMES.split(' ').map((entry) => {
      const codes = Array.from(entry, (char) => char.charCodeAt(0));
      return [nameKey(codes, 0, codes.length - 1), codes.at(-1) ?? 0];
    }),
  );
  return named.get(key);
}

/** Short texts (most strings of an answer) share these: redaction is synchronous. */
let scratch: { units: Uint16Array; ends: Int32Array } | undefined;

/**
 * Drops the backslash of a `\u` that `unit` cannot complete (`\u0` then `s`), moving the
 * units after it down; returns the new top.
 */
function dropDeadSlash(
  units: Uint16Array,
  ends: Int32Array | undefined,
  top: number,
  unit: number,
) {
  let u = top - 1;
  while (u > top - 4 && digitOf(units[u] ?? 0) >= 0) u--;
  const completes = digitOf(unit) >= 0 && top - u <= 4;
  if (units[u] !== 117 || units[u - 1] !== 92 || completes) return top;
  units.copyWithin(u - 1, u, top);
  ends?.copyWithin(u - 1, u, top);
  return top - 1;
}

/** Whether `units[0, top)` ends with `&#` or `&#x`. */
function isReferenceStart(units: Uint16Array, top: number): boolean {
  const x = units[top - 1] === 120 ? 1 : 0;
  return units[top - 1 - x] === 35 && units[top - 2 - x] === 38;
}

/**
 * `text` as the matcher reads it, made the same way for the text and for each secret, so
 * an echo in any in-scope form reads as the secret does: percent, `\uXXXX` and HTML
 * escapes decoded as deeply as they nest (`%2541`, `\u0026#x41;`), ASCII letters in lower
 * case, `+` as a space (a query mixes `+` and `%20`), backslashes dropped (JSON's `\/ \\ \"`
 * at any depth), a reference's leading zeros dropped. Linear: each unit is pushed once,
 * and an escape is replaced by its unit when it ends (each pop undoes one push). When
 * `mapped`, `ends[i]` is where unit `i` ends in `text`; it starts where unit `i - 1` ends.
 */
function normalize(text: string, mapped = false) {
  scratch ??= { units: new Uint16Array(4096), ends: new Int32Array(4096) };
  const short = text.length <= scratch.units.length;
  const units = short ? scratch.units : new Uint16Array(text.length);
  const ends = mapped && !short ? new Int32Array(text.length) : scratch.ends;
  let top = 0;
  let slashes = false;
  let intro = -9; // where the last `%`, `\` or `&` was pushed (no escape is longer than 8)
  for (let i = 0; i < text.length; i++) {
    // JSON's `\\` is one backslash: read as one before anything decoded joins it.
    if (text.charCodeAt(i) === 92 && text.charCodeAt(i + 1) === 92) i++;
    for (let unit = text.charCodeAt(i); ; ) {
      if (unit >= 65 && unit <= 90) unit += 32;
      else if (unit === 43) unit = 32;
      // Backslashes escape what follows (JSON, at any depth): dropped as soon as what follows
      // cannot make them a `\uXXXX` (`\\u0026` is JSON of `\u0026`), so they split no escape.
      if (unit === 92) slashes = true;
      else if (unit !== 37 && unit !== 38 && top - intro <= 5) {
        while (unit !== 117 && units[top - 1] === 92) top--;
        top = dropDeadSlash(units, mapped ? ends : undefined, top, unit);
      }
      if (unit === 48 && isReferenceStart(units, top)) {
        if (mapped) ends[top - 1] = i + 1; // a reference's leading zero carries nothing
        break;
      }
      if (unit === 37 || unit === 92 || unit === 38) intro = top;
      if (mapped) ends[top] = i + 1;
      units[top++] = unit;
      const hexOrSemicolon = unit === 59 || digitOf(unit) >= 0;
      const ended = hexOrSemicolon && top - intro <= 8 ? escapeEnding(units, top) : -1;
      if (ended < 0) break;
      top -= ended >>> 16;
      unit = ended & 0xffff;
    }
  }
  let length = slashes ? 0 : top;
  for (let i = 0; slashes && i < top; i++) {
    if (units[i] === 92) continue;
    if (mapped) ends[length] = ends[i] ?? 0;
    units[length++] = units[i] ?? 0;
  }
  return { units, ends, length };
}

/**
 * One Aho-Corasick automaton of the normalized forms of some secrets: each unit of a text
 * moves it once (fail links amortised), so matching is linear whatever the secrets, where
 * `indexOf` of `-`×1500 in dashes is quadratic. Node 0 is the root. Edges: the root's of
 * Latin-1 units in `#root`, each other node's first in `#firstUnit`/`#firstChild` (most
 * nodes have one), the rest in `#edges` by `node * 0x10000 + unit`.
 */
class Matcher {
  readonly #edges = new Map<number, number>();
  readonly #root = new Int32Array(256);
  readonly #firstUnit: number[] = [-1];
  readonly #firstChild: number[] = [0];
  readonly #fail: number[] = [0];
  /** The longest form ending at each node, itself or through its fail links (0: none). */
  readonly #longest: number[] = [0];
  /** The index of the secret whose form ends exactly at each node (-1: none). */
  readonly #secretAt: number[] = [-1];
  /** The nearest node on each node's fail chain where a form ends (0: none). */
  readonly #output: number[] = [0];
  readonly shortest: number;

  constructor(secrets: readonly string[]) {
    const forms: Uint16Array[] = [];
    const owners: number[] = [];
    for (const [index, secret] of secrets.entries()) {
      // Also its UTF-8 bytes (percent-decoding reads one unit per byte), and its base64
      // and base64url, unpadded so that padded text matches too.
      let bytes = '';
      for (const byte of new TextEncoder().encode(secret)) bytes += String.fromCharCode(byte);
      const base64 = btoa(bytes).replace(/=+$/, '');
      for (const form of [secret, bytes, base64, base64.replace(/\+/g, '-').replace(/\//g, '_')]) {
        const { units, length } = normalize(form);
        if (length < MIN_SECRET_LENGTH) continue;
        forms.push(units.slice(0, length));
        owners.push(index);
      }
    }
    this.shortest = Math.min(...forms.map((form) => form.length));
    const parent = [0];
    const via = [0];
    const byDepth: number[][] = [];
    for (const [f, form] of forms.entries()) {
      let node = 0;
      form.forEach((unit, depth) => {
        let next = this.#child(node, unit);
        if (next === undefined) {
          next = this.#add(node, unit);
          parent[next] = node;
          via[next] = unit;
          byDepth[depth] ??= [];
          byDepth[depth]?.push(next);
        }
        node = next;
      });
      this.#longest[node] = Math.max(this.#longest[node] ?? 0, form.length);
      this.#secretAt[node] = owners[f] ?? -1;
    }
    // Fail links, shallowest nodes first: the parent's fail link, advanced by the same unit.
    for (const node of byDepth.flat()) {
      const up = parent[node] ?? 0;
      const fail = up === 0 ? 0 : this.#step(this.#fail[up] ?? 0, via[node] ?? 0);
      this.#fail[node] = fail;
      this.#output[node] = (this.#secretAt[fail] ?? -1) >= 0 ? fail : (this.#output[fail] ?? 0);
      this.#longest[node] = Math.max(this.#longest[node] ?? 0, this.#longest[fail] ?? 0);
    }
  }

  #add(node: number, unit: number): number {
    const added = this.#fail.push(0) - 1;
    this.#longest.push(0);
    this.#secretAt.push(-1);
    this.#output.push(0);
    this.#firstUnit.push(-1);
    this.#firstChild.push(0);
    if (node === 0 && unit < 256) this.#root[unit] = added;
    else if (this.#firstUnit[node] !== -1) this.#edges.set(node * 0x10000 + unit, added);
    else {
      this.#firstUnit[node] = unit;
      this.#firstChild[node] = added;
    }
    return added;
  }

  #child(node: number, unit: number): number | undefined {
    if (node === 0 && unit < 256) return this.#root[unit] || undefined; // the root is no child
    if (this.#firstUnit[node] === unit) return this.#firstChild[node];
    return this.#edges.get(node * 0x10000 + unit);
  }

  #step(node: number, unit: number): number {
    for (let at = node; ; at = this.#fail[at] ?? 0) {
      const next = this.#child(at, unit);
      if (next !== undefined) return next;
      if (at === 0) return 0;
    }
  }

  /** Where the forms occur in `units[0, length)`, as disjoint [start, end) spans in order. */
  spans(units: Uint16Array, length: number): [number, number][] {
    const spans: [number, number][] = [];
    for (let i = 0, node = 0; i < length; i++) {
      node = this.#step(node, units[i] ?? 0);
      let from = i + 1 - (this.#longest[node] ?? 0);
      if (from > i) continue;
      // A longer form may reach back over earlier matches: merge them (each merged once).
      for (let last = spans.at(-1); last && from <= last[1]; last = spans.at(-1)) {
        from = Math.min(from, last[0]);
        spans.pop();
      }
      spans.push([from, i + 1]);
    }
    return spans;
  }

  /**
   * The indexes of the secrets some form of which occurs in `units[0, length)`, each once.
   * Every form ending at a unit is on that node's output chain; a chain node already
   * walked had its whole chain walked, so the walk stops there: linear in the text plus
   * the automaton.
   */
  secretsIn(units: Uint16Array, length: number): Set<number> {
    const found = new Set<number>();
    const walked = new Set<number>();
    for (let i = 0, node = 0; i < length; i++) {
      node = this.#step(node, units[i] ?? 0);
      if ((this.#longest[node] ?? 0) === 0) continue;
      let at = (this.#secretAt[node] ?? -1) >= 0 ? node : (this.#output[node] ?? 0);
      for (; at !== 0 && !walked.has(at); at = this.#output[at] ?? 0) {
        walked.add(at);
        found.add(this.#secretAt[at] ?? -1);
      }
    }
    return found;
  }
}

/** `text` with each echo of the matchers' secrets replaced, the rest kept as written. */
function redactText(text: string, matchers: readonly Matcher[]): string {
  // Decoding only shortens a text: one shorter than every form holds none.
  if (matchers.every((matcher) => text.length < matcher.shortest)) return text;
  const { units, length } = normalize(text);
  const found = matchers.flatMap((matcher) => matcher.spans(units, length));
  if (found.length === 0) return text;
  const { ends } = normalize(text, true);
  const spans = found
    .map(([start, end]) => [ends[start - 1] ?? 0, ends[end - 1] ?? 0] as const)
    .sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  for (const [from, to] of spans) {
    if (to <= done) continue;
    out += from >= done ? text.slice(done, from) + REDACTED : '';
    done = to;
  }
  return out + text.slice(done);
}

/** An array or an object literal: what JSON answers are made of, and all that is rebuilt. */
type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Redacts strings and member names at any depth (a server may echo a key as a member
 * name). Only arrays and object literals are rebuilt (a class instance is the
 * application's own), and only where a secret was found: a value without one comes back
 * itself. The walk keeps its own stack (children before their parent), so deep nesting
 * cannot overflow the call stack; each object is walked once, so cycles end (an object
 * that contains itself keeps that one reference as it was).
 */
function redactValue(value: unknown, matchers: readonly Matcher[]): unknown {
  const copies = new Map<Container, Container>();
  const redact = (item: unknown): unknown =>
    typeof item === 'string'
      ? redactText(item, matchers)
      : isContainer(item)
        ? (copies.get(item) ?? item)
        : item;
  if (!isContainer(value)) return redact(value);
  const visited = new Set<Container>();
  const stack: [Container, boolean][] = [[value, false]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, expanded] = top;
    if (expanded) {
      let changed = false;
      const entries = Object.entries(node).map(([name, item]): [string, unknown] => {
        const next = [Array.isArray(node) ? name : redactText(name, matchers), redact(item)];
        changed ||= next[0] !== name || next[1] !== item;
        return next as [string, unknown];
      });
      // fromEntries defines members, so a `__proto__` name stays an ordinary member.
      if (changed) {
        copies.set(
          node,
          Array.isArray(node) ? entries.map((e) => e[1]) : Object.fromEntries(entries),
        );
      }
    } else if (!visited.has(node)) {
      visited.add(node);
      stack.push([node, true]);
      for (const child of Object.values(node)) {
        if (isContainer(child) && !visited.has(child)) stack.push([child, false]);
      }
    }
  }
  return copies.get(value) ?? value;
}

/** The secrets worth looking for (long enough, once each), as one matcher. */
function matchersOf(secrets: readonly (string | undefined)[]): Matcher[] {
  const real = secrets.filter(
    (secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH,
  );
  return real.length === 0 ? [] : [new Matcher([...new Set(real)])];
}

function redactorOf(matchers: readonly Matcher[]): Redactor {
  return (value) =>
    matchers.length === 0 ? value : (redactValue(value, matchers) as typeof value);
}

/**
 * Replaces every echo of `secrets` in `text`: as written, in any ASCII letter case,
 * percent-encoded (`+` or `%20` for a space), JSON-escaped, HTML-escaped (named, decimal,
 * hex references), escaped more than once, and base64 / base64url of the secret alone.
 * Linear in the text; secrets shorter than 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return redactText(text, matchersOf(secrets));
}

/**
 * The secrets `text` echoes in a form {@link redactSecrets} removes, in the order given,
 * each once: one pass of the text, however many secrets.
 */
export function secretEchoesIn(text: string, secrets: readonly (string | undefined)[]): string[] {
  const real = [
    ...new Set(
      secrets.filter((secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH),
    ),
  ];
  if (real.length === 0) return [];
  const matcher = new Matcher(real);
  // Decoding only shortens a text: one shorter than every form holds none.
  if (text.length < matcher.shortest) return [];
  const { units, length } = normalize(text);
  const found = matcher.secretsIn(units, length);
  return real.filter((_, index) => found.has(index));
}

/** Whether `text` echoes any of `secrets` in a form {@link redactSecrets} removes. */
export function findSecretEchoes(text: string, secrets: readonly (string | undefined)[]): boolean {
  return secretEchoesIn(text, secrets).length > 0;
}

/**
 * Builds a redactor that replaces each secret (the API key, a bearer token, a payment
 * credential) in strings and member names, deeply, in the forms {@link redactSecrets}
 * covers. Missing and very short secrets are ignored.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  return redactorOf(matchersOf(secrets));
}

/** How long a payment credential stays a secret after it was sent, and how many are kept. */
const CREDENTIAL_WINDOW_MS = 1_800_000; // 30 minutes (a literal: a bundler keeps arithmetic)
const MAX_CREDENTIALS = 256;

/**
 * The secrets one connection sends: its API key for good, and each payment credential
 * from the moment it is handed to fetch, for 30 minutes (an answer read later may echo
 * it), at most 256 (oldest dropped first). A call's own credential stays one for that call
 * through {@link SentSecrets.with}, however many other calls paid meanwhile.
 *
 * Two matchers, so a paid call does not rebuild the automaton of every live credential
 * (red team R2: 116 ms per paid call at 256): a stable one of the key and the credentials
 * live at its build, and a small one of the credentials added since, rebuilt at each add.
 * When the small one holds more than √N credentials (N live), both merge into a new
 * stable one: an add costs O(√N) credentials' build, amortised. A credential that expires
 * or is dropped keeps matching until the next merge: redacting a dead credential costs
 * nothing, and dropping it would mean a rebuild.
 */
export class SentSecrets {
  readonly #apiKey: string | undefined;
  /** Credential tokens by the time they were sent (insertion order: oldest first). */
  readonly #recent = new Map<string, number>();
  /** The key and the credentials live at the last merge; rebuilt at the next use if unset. */
  #stable: Matcher[] | undefined;
  /** Credentials added since the last merge, and their matcher (built at the next use). */
  #added: string[] = [];
  #fresh: Matcher[] | undefined;

  constructor(apiKey: string | undefined) {
    this.#apiKey = apiKey;
  }

  /** Redacts the key and the credentials sent lately. */
  readonly redact: Redactor = (value) => redactorOf(this.#current())(value);

  /** Makes `credential` (an `Authorization` value, e.g. `Payment eyJ…`) a secret. */
  add(credential: string): void {
    const token = credentialToken(credential);
    this.#expire();
    if (this.#recent.has(token)) return;
    this.#recent.set(token, Date.now());
    if (this.#recent.size > MAX_CREDENTIALS)
      this.#recent.delete(this.#recent.keys().next().value ?? '');
    this.#added.push(token);
    if (this.#added.length ** 2 > this.#recent.size) this.#stable = undefined;
    else this.#fresh = undefined;
  }

  /** A redactor that also removes `extra` secrets (a bearer token, a call's credential). */
  with(...extra: (string | undefined)[]): Redactor {
    let own: Matcher[] | undefined; // built at the first use: most answers need no redaction
    return (value) => {
      own ??= matchersOf(extra);
      return redactorOf([...this.#current(), ...own])(value);
    };
  }

  #current(): Matcher[] {
    this.#expire();
    if (this.#stable === undefined) {
      this.#stable = matchersOf([this.#apiKey, ...this.#recent.keys()]);
      this.#added = [];
      this.#fresh = [];
    }
    this.#fresh ??= matchersOf(this.#added);
    return this.#fresh.length === 0 ? this.#stable : [...this.#stable, ...this.#fresh];
  }

  /** Forgets credentials sent longer ago than the window (they match until the next merge). */
  #expire(): void {
    const oldest = Date.now() - CREDENTIAL_WINDOW_MS;
    for (const [token, sentAt] of this.#recent) {
      if (sentAt > oldest) break;
      this.#recent.delete(token);
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
