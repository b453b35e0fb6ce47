/**
 * Removes secrets from text the service sent back (a `detail` echoing the key, an HTML page)
 * before an error, a log line or a model gets it. The text and each secret's forms are read
 * through the same one-layer decode; one automaton finds the forms in one linear pass.
 */
export type Redactor = <T>(value: T) => T;

const REDACTED = '[redacted]';
const MIN_SECRET_LENGTH = 4; // a shorter "secret" would shred ordinary text
/** The longest secret the client sends (a common header limit): longer ones are refused. */
export const MAX_SECRET_LENGTH = 16_384;
/** One escape at the cursor: percent, JSON (`\uXXXX`, `\"`, `\\`, `\/`), HTML with `;`. */
const ESCAPE =
  /%([0-9a-f]{2})|\\u([0-9a-f]{4})|\\(["\\/])|&#x0*([0-9a-f]{1,4});|&#0*(\d{1,5});|&([a-z]{2,16});/iy;
/** Every HTML5 named reference of ASCII punctuation, in HTML's case (`&Vert;` is U+2016). */
const NAMES =
  'excl! quot" QUOT" num# dollar$ percnt% amp& AMP& apos\' lpar( rpar) ast* midast* plus+ comma, period. sol/ colon: semi; lt< LT< equals= gt> GT> quest? commat@ lbrack[ lsqb[ bsol\\ rbrack] rsqb] Hat^ lowbar_ UnderBar_ grave` DiacriticalGrave` lbrace{ lcub{ verbar| vert| VerticalLine| rbrace} rcub}';
let named: Map<string, number> | undefined; // built at first use: module code stays pure
/** Decoded units and ends of short texts (most strings), reused: redaction is synchronous. */
let scratch: [Uint16Array, Int32Array] | undefined;

/** The unit the escape `match` stands for; -1 if none. */
function unitOf([, percent, json, any, hex, decimal, name]: RegExpExecArray): number {
  named ??= new Map(NAMES.split(' ').map((e) => [e.slice(0, -1), e.charCodeAt(e.length - 1)]));
  if (any !== undefined) return any.charCodeAt(0);
  if (name !== undefined) return named.get(name) ?? -1;
  const value = Number.parseInt(percent ?? json ?? hex ?? decimal ?? '', decimal ? 10 : 16);
  return value <= 0xffff ? value : -1;
}

/**
 * `text` as the matcher reads it, in one linear pass: one layer of escapes decoded, ASCII
 * letters in lower case, `+` as a space (a query mixes `+` and `%20`); unit `i` ends at
 * `ends[i]`, kept for a long text only if `mapped` (4 bytes a unit: most texts hold no secret).
 */
function decode(text: string, mapped = false) {
  const short = text.length <= 65_536;
  if (short) scratch ??= [new Uint16Array(65_536), new Int32Array(65_536)];
  const [units, ends] =
    short && scratch
      ? scratch
      : [new Uint16Array(text.length), new Int32Array(mapped ? text.length : 0)];
  let length = 0;
  for (let i = 0; i < text.length; length++) {
    let unit = text.charCodeAt(i++);
    if (unit === 37 || unit === 38 || unit === 92) {
      ESCAPE.lastIndex = i - 1;
      const match = ESCAPE.exec(text);
      const decoded = match ? unitOf(match) : -1;
      if (decoded >= 0) [unit, i] = [decoded, ESCAPE.lastIndex];
    }
    units[length] = unit === 43 ? 32 : unit >= 65 && unit <= 90 ? unit + 32 : unit;
    if (short || mapped) ends[length] = i;
  }
  return { units, ends, length };
}

const ENCODERS = [
  encodeURIComponent,
  encodeURI,
  (text: string) => JSON.stringify(text).slice(1, -1),
  (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`), // templates
  (text: string) =>
    text.replace(/[\s\S]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
];

/**
 * What the matcher looks for of one secret, each read like the text (so a secret holding
 * escapes reads alike in it): the secret as written and as each encoder writes it, and its
 * base64 and base64url, unpadded so padded text matches too.
 */
function formsOf(secret: string): string[] {
  const forms = [secret];
  for (const encode of ENCODERS) {
    try {
      forms.push(encode(secret));
    } catch {} // a lone surrogate: no encoder writes it, and no header holds it
  }
  let bytes = '';
  for (const byte of new TextEncoder().encode(secret)) bytes += String.fromCharCode(byte);
  const base64 = btoa(bytes).replace(/=+$/, '');
  forms.push(base64, base64.replace(/\+/g, '-').replace(/\//g, '_'));
  const read = forms.map((form) => {
    const { units, length } = decode(form);
    let out = ''; // in slices: spreading 100 K units overflows the stack
    for (let at = 0; at < length; at += 4096)
      out += String.fromCharCode(...units.subarray(at, Math.min(at + 4096, length)));
    return out;
  });
  return [...new Set(read)].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * An Aho-Corasick automaton of some secrets' forms: a decoded unit moves it once (fail links
 * amortised), linear whatever the secrets (`indexOf` of `-`×1500 in dashes is quadratic).
 */
class Matcher {
  readonly secrets: readonly string[];
  readonly shortest: number;
  readonly #root = new Int32Array(128); // the root's ASCII edges: most text stays there
  readonly #unit = [-1]; // a node's first edge, its unit and child: most nodes have one
  readonly #next = [0];
  readonly #edges = new Map<number, number>(); // the others, keyed `node * 0x10000 + unit`
  readonly #fail = [0]; // node 0 is the root
  readonly #longest = [0]; // the longest form ending at a node or down its fail chain
  readonly #owners = new Map<number, number[]>(); // the secrets whose form ends at a node

  /** Ignores missing and very short secrets, and repeats. */
  constructor(secrets: readonly (string | undefined)[]) {
    const valid = (s: string | undefined): s is string => (s?.length ?? 0) >= MIN_SECRET_LENGTH;
    this.secrets = [...new Set(secrets)].filter(valid);
    const forms = this.secrets
      .flatMap((secret, owner) => formsOf(secret).map((form) => ({ form, owner, node: 0 })))
      .sort((a, b) => b.form.length - a.form.length);
    this.shortest = forms.at(-1)?.form.length ?? Number.POSITIVE_INFINITY;
    // Depth by depth, so that each new node's fail link is found among shallower nodes.
    for (let depth = 0; depth < (forms[0]?.form.length ?? 0); depth++) {
      for (let f = 0; f < forms.length && forms[f]!.form.length > depth; f++) {
        const entry = forms[f]!;
        const unit = entry.form.charCodeAt(depth);
        let node = this.#child(entry.node, unit);
        if (node === 0) {
          const fail = depth === 0 ? 0 : this.#step(this.#fail[entry.node]!, unit);
          node = this.#fail.push(fail) - 1;
          this.#longest.push(this.#longest[fail]!);
          this.#unit.push(-1);
          this.#next.push(0);
          if (entry.node === 0 && unit < 128) this.#root[unit] = node;
          else if (this.#unit[entry.node] !== -1)
            this.#edges.set(entry.node * 0x10000 + unit, node);
          else [this.#unit[entry.node], this.#next[entry.node]] = [unit, node];
        }
        if (depth + 1 === entry.form.length) {
          this.#longest[node] = depth + 1;
          // Two secrets may read alike (`abab1234`, `ABAB1234`): both own the node (4d F2).
          this.#owners.set(node, [...(this.#owners.get(node) ?? []), entry.owner]);
        }
        entry.node = node;
      }
    }
  }

  #child(node: number, unit: number): number {
    if (node === 0 && unit < 128) return this.#root[unit]!;
    if (this.#unit[node] === unit) return this.#next[node]!;
    return this.#edges.get(node * 0x10000 + unit) ?? 0;
  }

  #step(node: number, unit: number): number {
    for (let at = node; ; at = this.#fail[at]!) {
      const next = this.#child(at, unit);
      if (next !== 0 || at === 0) return next;
    }
  }

  /** Where forms occur in `units`, as merged [start, end) spans; adds the secrets to `owners`. */
  scan(units: Uint16Array, length: number, owners?: Set<number>): [number, number][] {
    const spans: [number, number][] = [];
    const walked = new Set<number>();
    for (let i = 0, node = 0; i < length; i++) {
      node = this.#step(node, units[i]!);
      let from = i + 1 - this.#longest[node]!;
      if (from > i) continue;
      while (spans.length > 0 && from <= spans.at(-1)![1]) from = Math.min(from, spans.pop()![0]);
      spans.push([from, i + 1]);
      // Each fail chain walked once: linear.
      for (let at = node; owners && at !== 0 && !walked.has(at); at = this.#fail[at]!) {
        walked.add(at);
        for (const owner of this.#owners.get(at) ?? []) owners.add(owner);
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
  const ends = spans.length === 0 || decodedEnds.length > 0 ? decodedEnds : decode(text, true).ends;
  let [out, done] = ['', 0];
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    const [from, to] = [start === 0 ? 0 : ends[start - 1]!, ends[end - 1]!];
    if (to > done && from >= done) out += text.slice(done, from) + REDACTED;
    done = Math.max(done, to);
  }
  return done === 0 ? text : out + text.slice(done);
}

/** An array or an object literal: what JSON answers are made of, and all that is rebuilt. */
type Container = unknown[] | Record<string, unknown>;
function isContainer(value: unknown): value is Container {
  if (Array.isArray(value)) return true;
  const prototype = value !== null && typeof value === 'object' && Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Redacts strings and member names at any depth, rebuilding only arrays and object literals
 * that hold a secret. An explicit stack, children before their parent: deep nesting cannot
 * overflow the call stack; each object is walked once, so cycles end.
 */
function redactValue(value: unknown, matchers: readonly Matcher[]): unknown {
  const copies = new Map<unknown, Container>();
  const redact = (item: unknown) =>
    typeof item === 'string' ? redactText(item, matchers) : (copies.get(item) ?? item);
  const visited = new Set<Container>();
  const stack: [Container, boolean][] = isContainer(value) ? [[value, false]] : [];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, expanded] = top;
    if (!expanded && !visited.has(node)) {
      visited.add(node);
      stack.push([node, true]);
      for (const child of Object.values(node)) if (isContainer(child)) stack.push([child, false]);
    } else if (expanded) {
      const array = Array.isArray(node);
      let changed = false;
      const entries = Object.entries(node).map(([name, item]): [string, unknown] => {
        const next: [string, unknown] = [array ? name : redactText(name, matchers), redact(item)];
        changed ||= next[0] !== name || next[1] !== item;
        return next;
      });
      // fromEntries defines members, so a `__proto__` name stays an ordinary member.
      if (changed) copies.set(node, array ? entries.map((e) => e[1]) : Object.fromEntries(entries));
    }
  }
  return redact(value);
}

/** Redacts with the matchers that have secrets; the identity when none has. */
function redactorOf(all: readonly Matcher[]): Redactor {
  const matchers = all.filter((matcher) => matcher.secrets.length > 0);
  return (value) => (matchers.length > 0 ? (redactValue(value, matchers) as typeof value) : value);
}

/**
 * Replaces every echo of `secrets` in `text`, in linear time: as written, in any ASCII letter
 * case, percent-encoded, JSON-escaped, HTML-escaped, and base64 / base64url of the secret
 * alone, one layer deep (docs/SECURITY.md). Secrets shorter than 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return redactText(text, [new Matcher(secrets)]);
}

/** The secrets `text` echoes in a form {@link redactSecrets} removes, in the order given, each once, in one pass. */
export function secretEchoesIn(text: string, secrets: readonly (string | undefined)[]): string[] {
  const matcher = new Matcher(secrets);
  const owners = new Set<number>();
  const { units, length } = decode(text);
  matcher.scan(units, length, owners);
  return matcher.secrets.filter((_, index) => owners.has(index));
}

/** Whether `text` echoes any of `secrets` in a form {@link redactSecrets} removes. */
export function findSecretEchoes(text: string, secrets: readonly (string | undefined)[]): boolean {
  return secretEchoesIn(text, secrets).length > 0;
}

/** A redactor of `secrets` in strings and member names, deeply, as {@link redactSecrets}. */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  return redactorOf([new Matcher(secrets)]);
}

const CREDENTIAL_WINDOW_MS = 1_800_000; // 30 minutes (a literal: a bundler keeps arithmetic)
/**
 * Characters of live credentials kept, oldest dropped first: bounds every matcher build
 * whatever their length (red team 4d F1: 256 credentials of 16 KiB took seconds a call).
 */
const MAX_CREDENTIAL_CHARS = 262_144;

/**
 * The secrets one connection sends: its API key for good, and each payment credential from
 * the moment it is handed to fetch, for 30 minutes (an answer read later may echo it), at
 * most 256 and 256 Ki characters (oldest dropped first). {@link SentSecrets.with} keeps a
 * call's own credential.
 * Two matchers, so a paid call does not rebuild the automaton of every live credential (red
 * team R2): one of the key and the credentials live at its build, and one of those added
 * since, rebuilt at each add; when it holds more than √N (N live), both merge: an add costs
 * O(√N) credentials' build, amortised. A dead credential matches until the merge.
 */
export class SentSecrets {
  readonly #apiKey: string | undefined;
  readonly #sent = new Map<string, number>(); // credential token → when sent, oldest first
  #chars = 0; // of the live credentials
  #stable: Matcher | undefined;
  #added: string[] = [];
  #fresh: Matcher | undefined;

  constructor(apiKey: string | undefined) {
    this.#apiKey = apiKey;
  }

  /** Redacts the key and the credentials sent lately. */
  readonly redact: Redactor = (value) => redactorOf(this.#matchers())(value);

  /** Makes `credential` (an `Authorization` value, e.g. `Payment eyJ…`) a secret. */
  add(credential: string): void {
    const token = credentialToken(credential);
    const known = this.#forget(token); // sent again: the newest now, and still matched
    this.#sent.set(token, Date.now());
    this.#chars += token.length;
    while (this.#sent.size > 256 || this.#chars > MAX_CREDENTIAL_CHARS)
      this.#forget(this.#sent.keys().next().value ?? '');
    if (known) return;
    this.#added.push(token);
    if (this.#added.length ** 2 > this.#sent.size) this.#stable = undefined;
    this.#fresh = undefined;
  }

  /** A redactor that also removes `extra` secrets (a bearer token, a call's credential). */
  with(...extra: (string | undefined)[]): Redactor {
    let own: Matcher | undefined; // built at the first use: most answers need no redaction
    return (value) => {
      own ??= new Matcher(extra);
      return redactorOf([...this.#matchers(), own])(value);
    };
  }

  #forget(token: string): boolean {
    if (!this.#sent.delete(token)) return false;
    this.#chars -= token.length;
    return true;
  }

  /** The two matchers, once the credentials sent more than 30 minutes ago are dropped. */
  #matchers(): Matcher[] {
    for (const [token, sentAt] of this.#sent) {
      if (sentAt > Date.now() - CREDENTIAL_WINDOW_MS) break;
      this.#forget(token);
    }
    if (this.#stable === undefined) {
      this.#stable = new Matcher([this.#apiKey, ...this.#sent.keys()]);
      this.#added = [];
    }
    this.#fresh ??= new Matcher(this.#added);
    return [this.#stable, this.#fresh];
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
