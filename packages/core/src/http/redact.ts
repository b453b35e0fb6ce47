/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error, a log line or what a model reads.
 */
export type Redactor = <T>(value: T) => T;

const REDACTED = '[redacted]';
/** A very short "secret" would shred ordinary text; real keys and tokens are long. */
const MIN_SECRET_LENGTH = 4;
/**
 * The longest secret (an API key, a payment credential) the client sends: 16 KiB, a header
 * limit of common servers. Longer ones are refused before use, so forms stay bounded.
 */
export const MAX_SECRET_LENGTH = 16_384;
/** One escape at the cursor: percent, JSON (`\uXXXX`, `\` + any), HTML references with `;`. */
const ESCAPE =
  /%([0-9a-f]{2})|\\u([0-9a-f]{4})|\\(["\\/])|&#x0*([0-9a-f]{1,4});|&#0*(\d{1,5});|&([a-z]{2,16});/iy;
/**
 * Every HTML5 named reference (WHATWG table) that stands for printable ASCII punctuation,
 * case-sensitive as HTML reads them (`&Vert;` is U+2016; none stands for `-` or `~`).
 */
const NAMES =
  'excl! quot" QUOT" num# dollar$ percnt% amp& AMP& apos\' lpar( rpar) ast* midast* plus+ comma, period. sol/ colon: semi; lt< LT< equals= gt> GT> quest? commat@ lbrack[ lsqb[ bsol\\ rbrack] rsqb] Hat^ lowbar_ UnderBar_ grave` DiacriticalGrave` lbrace{ lcub{ verbar| vert| VerticalLine| rbrace} rcub}';
let named: Map<string, number> | undefined; // built at first use: module code stays pure
/** Decoded units of short texts (most strings of an answer): redaction is synchronous. */
let scratch: { units: Uint16Array; ends: Int32Array } | undefined;

/** The unit the escape `match` stands for; -1 if it stands for none. */
function unitOf([, percent, json, any, hex, decimal, name]: RegExpExecArray): number {
  named ??= new Map(
    NAMES.split(' ').map((entry) => [entry.slice(0, -1), entry.charCodeAt(entry.length - 1)]),
  );
  if (any !== undefined) return any.charCodeAt(0);
  if (name !== undefined) return named.get(name) ?? -1;
  const value = Number.parseInt(percent ?? json ?? hex ?? decimal ?? '', decimal ? 10 : 16);
  return value <= 0xffff ? value : -1;
}

/**
 * `text` as the matcher reads it: one layer of escapes decoded, ASCII letters in lower case,
 * `+` as a space (a query mixes `+` and `%20`). Linear: each escape is at most 18 units
 * (leading zeros aside). `ends[i]` is where decoded unit `i` ends in `text`.
 */
function decode(text: string, mapped = false) {
  const short = text.length <= 65_536;
  if (short) scratch ??= { units: new Uint16Array(65_536), ends: new Int32Array(65_536) };
  const units = short && scratch ? scratch.units : new Uint16Array(text.length);
  // A long text is mapped back only when it holds a secret (a second pass): 4 bytes a unit.
  const ends = short && scratch ? scratch.ends : new Int32Array(mapped ? text.length : 0);
  let length = 0;
  for (let i = 0; i < text.length; length++) {
    let unit = text.charCodeAt(i++);
    if (unit === 37 || unit === 38 || unit === 92) {
      ESCAPE.lastIndex = i - 1;
      const match = ESCAPE.exec(text);
      const decoded = match ? unitOf(match) : -1;
      if (decoded >= 0) {
        unit = decoded;
        i = ESCAPE.lastIndex;
      }
    }
    units[length] = unit === 43 ? 32 : unit >= 65 && unit <= 90 ? unit + 32 : unit;
    if (short || mapped) ends[length] = i;
  }
  return { units, ends, length };
}

/** Text with `&<>"'` as HTML references, as templates escape it. */
const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const ENCODERS = [
  encodeURIComponent,
  encodeURI,
  (text: string) => JSON.stringify(text).slice(1, -1),
  html,
];

/**
 * What the matcher looks for of one secret: the secret as each common encoder writes it,
 * read like the text (one layer decoded), so a secret that holds escapes itself reads alike
 * in the text; the secret with every character escaped; its base64 and base64url, unpadded
 * so that padded text matches too.
 */
function formsOf(secret: string): string[] {
  const read = (text: string) => {
    const { units, length } = decode(text);
    let form = ''; // in slices: spreading a long secret's units would overflow the stack
    for (let at = 0; at < length; at += 4096)
      form += String.fromCharCode(...units.subarray(at, Math.min(at + 4096, length)));
    return form;
  };
  const forms = [
    secret,
    secret.replace(/[\s\S]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  ];
  for (const encode of ENCODERS) {
    try {
      forms.push(encode(secret));
    } catch {} // a lone surrogate: no encoder writes it, and no header holds it
  }
  let bytes = '';
  for (const byte of new TextEncoder().encode(secret)) bytes += String.fromCharCode(byte);
  const base64 = btoa(bytes).replace(/=+$/, '');
  forms.push(base64, base64.replace(/\+/g, '-').replace(/\//g, '_'));
  return [...new Set(forms.map(read))].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * One Aho-Corasick automaton of the forms of some secrets: each unit of a decoded text moves
 * it once (fail links amortised), so matching is linear whatever the secrets, where
 * `indexOf` of `-`×1500 in dashes is quadratic. Node 0 is the root; edges are keyed
 * `node * 0x10000 + unit`, the root's ASCII ones in an array (most text stays there).
 */
class Matcher {
  readonly #root = new Int32Array(128);
  /** Each node's first edge (most nodes have one), the rest in a map. */
  readonly #firstUnit = [-1];
  readonly #firstChild = [0];
  readonly #edges = new Map<number, number>();
  readonly #fail = [0];
  /** The longest form ending at a node, itself or down its fail chain (0: none). */
  readonly #longest = [0];
  /** The secret whose form ends at a node (-1: none), and the next such node down its fail chain. */
  readonly #owner = [-1];
  readonly #output = [0];
  readonly shortest: number;

  readonly secrets: readonly string[];

  /** Ignores missing and very short secrets, and repeats. */
  constructor(secrets: readonly (string | undefined)[]) {
    this.secrets = [...new Set(secrets)].filter(
      (secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH,
    );
    const parent = [0];
    const via = [0];
    const byDepth: number[][] = [];
    let shortest = Number.POSITIVE_INFINITY;
    this.secrets.forEach((secret, owner) => {
      for (const form of formsOf(secret)) {
        let node = 0;
        for (let depth = 0; depth < form.length; depth++) {
          const unit = form.charCodeAt(depth);
          let next = this.#child(node, unit);
          if (next === 0) {
            next = this.#fail.push(0) - 1;
            this.#longest.push(0);
            this.#owner.push(-1);
            parent.push(node);
            via.push(unit);
            if (byDepth.length === depth) byDepth.push([]);
            byDepth[depth]?.push(next);
            this.#firstUnit.push(-1);
            this.#firstChild.push(0);
            if (node === 0 && unit < 128) this.#root[unit] = next;
            else if (this.#firstUnit[node] !== -1) this.#edges.set(node * 0x10000 + unit, next);
            else [this.#firstUnit[node], this.#firstChild[node]] = [unit, next];
          }
          node = next;
        }
        this.#longest[node] = form.length;
        this.#owner[node] = owner;
        shortest = Math.min(shortest, form.length);
      }
    });
    this.shortest = shortest;
    // Fail links, shallowest first: the parent's fail link advanced by the same unit.
    for (const [depth, nodes] of byDepth.entries()) {
      for (const node of nodes) {
        const up = parent[node] ?? 0;
        const fail = depth === 0 ? 0 : this.#step(this.#fail[up] ?? 0, via[node] ?? 0);
        this.#fail[node] = fail;
        this.#output[node] = (this.#owner[fail] ?? -1) >= 0 ? fail : (this.#output[fail] ?? 0);
        this.#longest[node] = Math.max(this.#longest[node] ?? 0, this.#longest[fail] ?? 0);
      }
    }
  }

  #child(node: number, unit: number): number {
    if (node === 0 && unit < 128) return this.#root[unit] ?? 0;
    if (this.#firstUnit[node] === unit) return this.#firstChild[node] ?? 0;
    return this.#edges.get(node * 0x10000 + unit) ?? 0;
  }

  #step(node: number, unit: number): number {
    for (let at = node; ; at = this.#fail[at] ?? 0) {
      const next = this.#child(at, unit);
      if (next !== 0 || at === 0) return next;
    }
  }

  /**
   * One pass over `units[0, length)`: where the forms occur (merged [start, end) spans: a
   * longer form may reach back over earlier ones) and, given `owners`, adds the secrets
   * found to it (each output chain walked once: linear).
   */
  scan(units: Uint16Array, length: number, owners?: Set<number>): [number, number][] {
    const spans: [number, number][] = [];
    const walked = new Set<number>();
    for (let i = 0, node = 0; i < length; i++) {
      node = this.#step(node, units[i] ?? 0);
      let from = i + 1 - (this.#longest[node] ?? 0);
      if (from > i) continue;
      for (let last = spans.at(-1); last && from <= last[1]; last = spans.at(-1)) {
        from = Math.min(from, last[0]);
        spans.pop();
      }
      spans.push([from, i + 1]);
      let at = (this.#owner[node] ?? -1) >= 0 ? node : (this.#output[node] ?? 0);
      for (; owners && at !== 0 && !walked.has(at); at = this.#output[at] ?? 0) {
        walked.add(at);
        owners.add(this.#owner[at] ?? -1);
      }
    }
    return spans;
  }
}

/** `text` with each echo of the matchers' secrets replaced, the rest kept as written. */
function redactText(text: string, matchers: readonly Matcher[]): string {
  // Decoding only shortens a text: one shorter than every form holds none.
  if (matchers.every((matcher) => text.length < matcher.shortest)) return text;
  const { units, ends: decodedEnds, length } = decode(text);
  const spans = matchers.flatMap((matcher) => matcher.scan(units, length));
  if (spans.length === 0) return text;
  const ends = decodedEnds.length >= length ? decodedEnds : decode(text, true).ends;
  let out = '';
  let done = 0;
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    const [from, to] = [start === 0 ? 0 : (ends[start - 1] ?? 0), ends[end - 1] ?? 0];
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
  const prototype = value !== null && typeof value === 'object' && Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Redacts strings and member names at any depth (a server may echo a key as a member
 * name). Only arrays and object literals are rebuilt (a class instance is the
 * application's own), and only where a secret was found: a value without one comes back
 * itself. An explicit stack (children before their parent), so deep nesting cannot
 * overflow the call stack; each object is walked once, so cycles end.
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
        const next: [string, unknown] = [
          Array.isArray(node) ? name : redactText(name, matchers),
          redact(item),
        ];
        changed ||= next[0] !== name || next[1] !== item;
        return next;
      });
      // fromEntries defines members, so a `__proto__` name stays an ordinary member.
      if (changed)
        copies.set(
          node,
          Array.isArray(node) ? entries.map((e) => e[1]) : Object.fromEntries(entries),
        );
    } else if (!visited.has(node)) {
      visited.add(node);
      stack.push([node, true]);
      for (const child of Object.values(node))
        if (isContainer(child) && !visited.has(child)) stack.push([child, false]);
    }
  }
  return copies.get(value) ?? value;
}

/** Redacts with the matchers that have secrets; the identity when none has. */
function redactorOf(all: readonly Matcher[]): Redactor {
  const matchers = all.filter((matcher) => matcher.secrets.length > 0);
  return (value) =>
    matchers.length === 0 ? value : (redactValue(value, matchers) as typeof value);
}

/**
 * Replaces every echo of `secrets` in `text`: as written, in any ASCII letter case,
 * percent-encoded (`+` or `%20` for a space), JSON-escaped, HTML-escaped (named, decimal,
 * hex references), and base64 / base64url of the secret alone, each one layer deep
 * (docs/SECURITY.md says what is out of scope). Linear in the text; secrets shorter than
 * 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return redactText(text, [new Matcher(secrets)]);
}

/** The secrets `text` echoes in a form {@link redactSecrets} removes, in the order given, each once, in one pass. */
export function secretEchoesIn(text: string, secrets: readonly (string | undefined)[]): string[] {
  const matcher = new Matcher(secrets);
  if (text.length < matcher.shortest) return [];
  const { units, length } = decode(text);
  const owners = new Set<number>();
  matcher.scan(units, length, owners);
  return matcher.secrets.filter((_, index) => owners.has(index));
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
  return redactorOf([new Matcher(secrets)]);
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
 * (red team R2): a stable one of the key and the credentials live at its build, and a small
 * one of those added since, rebuilt at each add; when the small one holds more than √N
 * (N live), both merge: an add costs O(√N) credentials' build, amortised. An expired or
 * dropped credential keeps matching until the next merge (a dead one costs nothing).
 */
export class SentSecrets {
  readonly #apiKey: string | undefined;
  /** Credential tokens by the time they were sent (insertion order: oldest first). */
  readonly #recent = new Map<string, number>();
  /** Of the key and the credentials live at the last merge; of those added since. */
  #stable: Matcher | undefined;
  #added: string[] = [];
  #fresh: Matcher | undefined;

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
    this.#fresh = undefined;
  }

  /** A redactor that also removes `extra` secrets (a bearer token, a call's credential). */
  with(...extra: (string | undefined)[]): Redactor {
    let own: Matcher | undefined; // built at the first use: most answers need no redaction
    return (value) => {
      own ??= new Matcher(extra);
      return redactorOf([...this.#current(), own])(value);
    };
  }

  #current(): Matcher[] {
    this.#expire();
    if (this.#stable === undefined) {
      this.#stable = new Matcher([this.#apiKey, ...this.#recent.keys()]);
      this.#added = [];
    }
    this.#fresh ??= new Matcher(this.#added);
    return [this.#stable, this.#fresh];
  }

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
  return (
    /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+(\S.*)$/.exec(value.trim())?.[1] ?? value.trim()
  );
}
