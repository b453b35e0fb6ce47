/**
 * Removes secrets from text the service sent back (a `detail` echoing the key, an HTML page)
 * before an error, a log line or a model gets it: one pass reads the text through a one-layer
 * decode into an automaton of the secrets' forms.
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
let next = 0; // where the escape `escaped` read last ends
let starts: Int32Array | undefined; // where the latest units began: a ring, one pass at a time

/** ASCII letters in lower case, `+` as a space (a query writes a space `+` or `%20`). */
const fold = (unit: number) => (unit === 43 ? 32 : unit >= 65 && unit <= 90 ? unit + 32 : unit);
/** Whether `unit` (`%`, `&`, `\`) may begin an escape. */
const opens = (unit: number) => unit === 37 || unit === 38 || unit === 92;

/** The unit the escape at `i` stands for, `next` set past it; else `unit`, and `i + 1`. */
function escaped(text: string, i: number, unit: number): number {
  [ESCAPE.lastIndex, next] = [i, i + 1];
  const [match, percent, json, any, hex, decimal, name] = ESCAPE.exec(text) ?? [];
  named ??= new Map(NAMES.split(' ').map((e) => [e.slice(0, -1), e.charCodeAt(e.length - 1)]));
  const value = Number.parseInt(percent ?? json ?? hex ?? decimal ?? '', decimal ? 10 : 16);
  const decoded = any?.charCodeAt(0) ?? (name ? named.get(name) : value <= 0xffff && value);
  if (!match || typeof decoded !== 'number') return unit;
  next = ESCAPE.lastIndex;
  return decoded;
}

/**
 * A secret's forms as the text reads them: as written (decoded like the text); as an encoder
 * that escapes each `%`, `&` and `\` writes it (encodeURIComponent, HTML references), which
 * reads as the secret's own characters; as JSON.stringify writes it (a secret holding `%41`);
 * and its base64 and base64url, unpadded so padded text matches too.
 */
function formsOf(secret: string): string[] {
  let bytes = ''; // byte by byte: spreading 100 K of them overflows the stack
  for (const byte of new TextEncoder().encode(secret)) bytes += String.fromCharCode(byte);
  const base64 = btoa(bytes).replace(/=+$/, '');
  const json = JSON.stringify(secret).slice(1, -1);
  // The last one is read without decoding: the secret's own characters.
  const forms = [secret, json, base64, base64.replace(/\+/g, '-').replace(/\//g, '_'), secret];
  const readings = forms.map((form, f) => {
    let out = '';
    for (let i = 0; i < form.length; ) {
      let unit = form.charCodeAt(i++);
      if (f < 4 && opens(unit)) [unit, i] = [escaped(form, i - 1, unit), next];
      out += String.fromCharCode(fold(unit));
    }
    return out;
  });
  return [...new Set(readings)].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * An Aho-Corasick automaton of some secrets' forms: a decoded unit moves it once (fail links
 * amortised), linear whatever the secrets (`indexOf` of `-`×1500 in dashes is quadratic).
 */
class Matcher {
  readonly secrets: readonly string[];
  readonly shortest: number;
  readonly longest: number;
  /** The secrets a JSON number could spell, as JSON.parse reads them (it rounds past 2^53). */
  readonly numbers: ReadonlySet<number>;
  readonly depth = [0]; // of the longest form ending at a node or down its fail chain
  readonly #root = new Int32Array(128); // the root's ASCII edges: most text stays there
  readonly #unit = [-1]; // a node's first edge, its unit and child: most nodes have one
  readonly #next = [0];
  readonly #edges = new Map<number, number>(); // the others, keyed `node * 0x10000 + unit`
  readonly #fail = [0]; // node 0 is the root
  readonly #owners = new Map<number, string[]>(); // the secrets whose form ends at a node

  /** Ignores missing and very short secrets, and repeats. */
  constructor(secrets: readonly (string | undefined)[]) {
    const valid = (s: string | undefined): s is string => (s?.length ?? 0) >= MIN_SECRET_LENGTH;
    this.secrets = [...new Set(secrets)].filter(valid);
    this.numbers = new Set(this.secrets.filter((s) => /^[-+.\deE]+$/.test(s)).map(Number));
    const forms = this.secrets
      .flatMap((owner) => formsOf(owner).map((form) => [form, owner] as const))
      .sort((a, b) => b[0].length - a[0].length);
    this.shortest = forms.at(-1)?.[0].length ?? Number.POSITIVE_INFINITY;
    this.longest = forms[0]?.[0].length ?? 0;
    const ends = forms.map(() => 0); // where each form's prefix so far ends
    // Depth by depth, so that each new node's fail link is found among shallower nodes.
    for (let depth = 0; depth < this.longest; depth++) {
      for (let f = 0; f < forms.length && forms[f]![0].length > depth; f++) {
        const [[form, owner], parent] = [forms[f]!, ends[f]!];
        const unit = form.charCodeAt(depth);
        let node = this.#child(parent, unit);
        if (node === 0) {
          const fail = depth === 0 ? 0 : this.step(this.#fail[parent]!, unit);
          node = this.#fail.push(fail) - 1;
          this.depth.push(this.depth[fail]!);
          this.#unit.push(-1);
          this.#next.push(0);
          if (parent === 0 && unit < 128) this.#root[unit] = node;
          else if (this.#unit[parent] !== -1) this.#edges.set(parent * 0x10000 + unit, node);
          else [this.#unit[parent], this.#next[parent]] = [unit, node];
        }
        if (depth + 1 === form.length) {
          this.depth[node] = depth + 1;
          // Two secrets may read alike (`abab1234`, `ABAB1234`): both own the node.
          this.#owners.set(node, [...(this.#owners.get(node) ?? []), owner]);
        }
        ends[f] = node;
      }
    }
  }

  #child(node: number, unit: number): number {
    if (node === 0 && unit < 128) return this.#root[unit]!;
    if (this.#unit[node] === unit) return this.#next[node]!;
    return this.#edges.get(node * 0x10000 + unit) ?? 0;
  }

  /** Adds the secrets whose forms end at `node` to `found`, each node `walked` once: linear. */
  collect(node: number, found: Set<string>, walked: Set<number>): void {
    for (let at = node; at !== 0 && !walked.has(at); at = this.#fail[at]!) {
      walked.add(at);
      for (const owner of this.#owners.get(at) ?? []) found.add(owner);
    }
  }

  /** The node after reading `unit` at `node`. */
  step(node: number, unit: number): number {
    for (let at = node; ; at = this.#fail[at]!) {
      const child = this.#child(at, unit);
      if (child !== 0 || at === 0) return child;
    }
  }
}

/** Where `matcher`'s forms occur in `text`, as merged [start, end) spans; their secrets to `found`. */
function scan(text: string, matcher: Matcher, found?: Set<string>): number[][] {
  if (!starts || starts.length < matcher.longest)
    starts = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(matcher.longest, 4096))));
  const [ring, spans, walked] = [starts, [] as number[][], found && new Set<number>()];
  const mask = ring.length - 1;
  for (let i = 0, k = 0, node = 0; i < text.length; k++) {
    let unit = text.charCodeAt(i);
    ring[k & mask] = i++;
    if (opens(unit)) [unit, i] = [escaped(text, i - 1, unit), next];
    node = matcher.step(node, fold(unit));
    const length = matcher.depth[node]!;
    if (length === 0) continue;
    if (walked) matcher.collect(node, found!, walked);
    let from = ring[(k + 1 - length) & mask]!;
    while (spans.length > 0 && from <= spans.at(-1)![1]!) from = Math.min(from, spans.pop()![0]!);
    spans.push([from, i]);
  }
  return spans;
}

/**
 * `text` with each echo of the matchers' secrets replaced, the rest kept as written. Every
 * matcher reads the original text, so secrets of two sets that overlap are cut out whole.
 */
function redactText(text: string, matchers: readonly Matcher[]): string {
  let spans: number[][] = [];
  for (const matcher of matchers) {
    // Decoding only shortens a text: one shorter than every form holds none.
    if (text.length >= matcher.shortest) spans = spans.concat(scan(text, matcher));
  }
  if (spans.length === 0) return text;
  if (matchers.length > 1) spans.sort((a, b) => a[0]! - b[0]!);
  let [out, done] = ['', -1];
  for (const [from = 0, to = 0] of spans) {
    if (to <= done) continue;
    if (from > done) out += text.slice(Math.max(done, 0), from) + REDACTED;
    done = to;
  }
  return out + text.slice(done);
}

/** An array or an object literal: what JSON answers are made of, and all that is rebuilt. */
type Container = unknown[] | Record<string, unknown>;
function isContainer(value: unknown): value is Container {
  const prototype = value !== null && typeof value === 'object' && Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * Redacts strings and member names at any depth, rebuilding only the arrays and object
 * literals that hold a secret. An explicit stack, children before their parent: deep nesting
 * cannot overflow the call stack; each container is walked once, so cycles end.
 */
function redactValue(value: unknown, matchers: readonly Matcher[]): unknown {
  const [copies, visited] = [new Map<unknown, Container>(), new Set<Container>()];
  // A number is read as its text only where a secret could be one (a key of digits).
  const numeric = matchers.some((matcher) => matcher.numbers.size > 0);
  const redact = (item: unknown) =>
    typeof item === 'string'
      ? redactText(item, matchers)
      : numeric &&
          typeof item === 'number' &&
          (matchers.some((m) => m.numbers.has(item)) ||
            redactText(`${item}`, matchers) !== `${item}`)
        ? REDACTED
        : (copies.get(item) ?? item);
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
        const pair: [string, unknown] = [array ? name : redactText(name, matchers), redact(item)];
        changed ||= pair[0] !== name || pair[1] !== item;
        return pair;
      });
      // fromEntries defines members, so a `__proto__` name stays an ordinary member.
      if (changed) copies.set(node, array ? entries.map((e) => e[1]) : Object.fromEntries(entries));
    }
  }
  return redact(value);
}

/** Redacts with the matchers that have secrets, in one walk; the identity when none has. */
function redactorOf(all: readonly Matcher[]): Redactor {
  const matchers = all.filter((matcher) => matcher.secrets.length > 0);
  return <T>(value: T) => (matchers.length === 0 ? value : (redactValue(value, matchers) as T));
}

/**
 * Replaces every echo of `secrets` in `text`, in linear time: as written, in any ASCII letter
 * case, percent-encoded, JSON-escaped, HTML-escaped, and base64 / base64url of the secret
 * alone, one layer deep (docs/SECURITY.md). Secrets shorter than 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return redactText(text, [new Matcher(secrets)]);
}

/** The secrets `text` echoes in a form {@link redactSecrets} removes, in the order given, once. */
export function secretEchoesIn(text: string, secrets: readonly (string | undefined)[]): string[] {
  const [matcher, found] = [new Matcher(secrets), new Set<string>()];
  scan(text, matcher, found);
  return matcher.secrets.filter((secret) => found.has(secret));
}

/** A redactor of `secrets` in strings and member names, deeply, as {@link redactSecrets}. */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  return redactorOf([new Matcher(secrets)]);
}

/** Credentials kept, oldest dropped first: a service choosing challenges sets their length. */
const [MAX_CREDENTIALS, MAX_CREDENTIAL_CHARS] = [256, 262_144];

/**
 * The secrets one connection sends: its API key, and each payment credential from the moment
 * it is handed to fetch (an answer read later may echo it), the latest 256 and 256 Ki
 * characters of them. Two matchers, so a paid call does not rebuild the automaton of every
 * credential: one of those kept at its build, and one of those added since, rebuilt at each
 * add; they merge when the second holds more than √N of N credentials.
 */
export class SentSecrets {
  readonly #apiKey: string | undefined;
  readonly #sent = new Set<string>(); // credential tokens, oldest first
  #added: string[] = [];
  #stable: Matcher | undefined; // a dropped credential keeps matching until the next merge
  #fresh: Matcher | undefined;

  constructor(apiKey: string | undefined) {
    this.#apiKey = apiKey;
  }

  /** Redacts the key and the credentials sent. */
  readonly redact: Redactor = (value) => this.with()(value);

  /** Makes `credential` (an `Authorization` value, e.g. `Payment eyJ…`) a secret. */
  add(credential: string): void {
    const token = credentialToken(credential);
    const known = this.#sent.delete(token); // sent again: the newest now, and still matched
    this.#sent.add(token);
    let [chars, count] = [0, 0];
    for (const kept of [...this.#sent].reverse()) {
      chars += kept.length;
      if (chars > MAX_CREDENTIAL_CHARS || ++count > MAX_CREDENTIALS) this.#sent.delete(kept);
    }
    if (known) return;
    this.#added.push(token);
    if (this.#added.length ** 2 > this.#sent.size) this.#stable = undefined;
    this.#fresh = undefined;
  }

  /** A redactor that also removes `extra` secrets (a bearer token, a call's credential). */
  with(...extra: (string | undefined)[]): Redactor {
    let own: Matcher | undefined; // built at the first use: most answers need no redaction
    return (value) => {
      if (this.#stable === undefined) {
        this.#stable = new Matcher([this.#apiKey, ...this.#sent]);
        this.#added = [];
      }
      this.#fresh ??= new Matcher(this.#added);
      own ??= new Matcher(extra);
      return redactorOf([this.#stable, this.#fresh, own])(value);
    };
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
