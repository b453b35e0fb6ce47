const REDACTED = '[redacted]';

/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error or a log line.
 */
export type Redactor = <T>(value: T) => T;

/** A very short "secret" would shred ordinary text; real keys and tokens are long. */
const MIN_SECRET_LENGTH = 4;

/** The named references an HTML echo uses for the ASCII punctuation of a key or token. */
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

/** JSON's one-letter escapes (`\/`, `\\`, `\"` and the control characters). */
const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '/': '/',
  '\\': '\\',
  '"': '"',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * One layer of percent, JSON and HTML escapes. Every alternative is a bounded literal
 * shape, so one `replace` scans the text in linear time.
 */
const ESCAPE =
  /%[0-9a-f]{2}|\\u[0-9a-f]{4}|\\[/\\"bfnrt]|&#x0*[0-9a-f]{1,6};|&#0*[0-9]{1,7};|&[a-z]{2,8};/gi;

/** The character an escape matched by {@link ESCAPE} stands for (undefined: not one). */
function decodeEscape(found: string): string | undefined {
  if (found[0] === '%') return String.fromCharCode(Number.parseInt(found.slice(1), 16));
  if (found[0] === '\\') {
    const code = found.length === 6 ? Number.parseInt(found.slice(2), 16) : undefined;
    return code === undefined ? JSON_ESCAPES[found[1] ?? ''] : String.fromCharCode(code);
  }
  if (found[1] !== '#') return NAMED[found.slice(1, -1).toLowerCase()];
  const hex = found[2] === 'x' || found[2] === 'X';
  const code = Number.parseInt(found.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
  return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** Lower case for the ASCII letters only, so the view keeps one unit per decoded unit. */
function lowerAscii(view: string): string {
  const lowered = view.toLowerCase();
  return lowered.length === view.length ? lowered : view.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * A lower-cased copy of `text` with one layer of escapes decoded (so mixed forms match),
 * and a map from its positions back to `text`: at each edge of a decoded escape, its
 * position in the view and in the text (plain runs in between line up one to one).
 */
function decode(text: string): {
  view: string;
  toText: (position: number) => number;
  decoded: boolean;
} {
  const inView: number[] = [];
  const inText: number[] = [];
  let shift = 0;
  const decoded = text.replace(ESCAPE, (match: string, offset: number) => {
    const char = decodeEscape(match);
    if (char === undefined) return match;
    inView.push(offset - shift, offset - shift + char.length);
    inText.push(offset, offset + match.length);
    shift += match.length - char.length;
    return char;
  });
  const toText = (position: number): number => {
    // The last edge at or before `position` (binary search: edges are in order).
    let low = 0;
    let high = inView.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((inView[middle] ?? 0) <= position) low = middle + 1;
      else high = middle - 1;
    }
    if (high < 0) return position;
    const inside = high % 2 === 0 && position > (inView[high] ?? 0);
    return inside ? (inText[high] ?? 0) : (inText[high] ?? 0) + position - (inView[high] ?? 0);
  };
  return { view: lowerAscii(decoded), toText, decoded: inView.length > 0 };
}

/** Base64 and base64url of `secret`'s UTF-8 bytes, unpadded (so padded text matches too). */
function base64Forms(secret: string): string[] {
  let binary = '';
  for (const byte of new TextEncoder().encode(secret)) binary += String.fromCharCode(byte);
  const standard = btoa(binary).replace(/=+$/, '');
  return [standard, standard.replaceAll('+', '-').replaceAll('/', '_')];
}

/** The literal forms looked for in the decoded, lower-cased view. */
function formsOf(secrets: readonly string[]): Set<string> {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // `+` for a space (a query string) is a literal form: decoding `+` would hide a real `+`.
    for (const form of [secret, secret.replaceAll(' ', '+'), ...base64Forms(secret)]) {
      forms.add(form.toLowerCase());
    }
  }
  return forms;
}

/**
 * Every form of some secrets as one Aho-Corasick automaton over UTF-16 units: a text is
 * matched in one pass, linear in its length whatever the secrets (a repeated-punctuation
 * secret cannot make it quadratic, as it can `indexOf`). Node 0 is the root.
 */
interface Matcher {
  /** The root's transitions by unit (most of a scan stays at the root). */
  readonly root: Int32Array;
  /** Each node's first child and its unit (most trie nodes have only one child)... */
  readonly child: Int32Array;
  readonly unit: Int32Array;
  /** ...and its other children by `node * 0x10000 + unit`, for nodes marked in `branches`. */
  readonly others: Map<number, number>;
  readonly branches: Uint8Array;
  readonly fail: Int32Array;
  /** The longest form ending at each node, itself or through its fail links (0: none). */
  readonly longest: Int32Array;
}

/** The node after `unit` from node `at`. */
function step(m: Matcher, at: number, unit: number): number {
  for (let node = at; ; node = m.fail[node] ?? 0) {
    if (node === 0) return m.root[unit] ?? 0;
    if (m.unit[node] === unit) return m.child[node] ?? 0;
    const other = m.branches[node] ? m.others.get(node * 0x10000 + unit) : undefined;
    if (other !== undefined) return other;
  }
}

/** The automaton of `secrets`' forms: a trie, then fail links, shallowest nodes first. */
function matcherOf(secrets: readonly string[]): Matcher {
  const forms = [...formsOf(secrets)];
  const size = forms.reduce((sum, form) => sum + form.length, 1);
  const m: Matcher = {
    root: new Int32Array(0x10000),
    child: new Int32Array(size),
    unit: new Int32Array(size).fill(-1),
    others: new Map(),
    branches: new Uint8Array(size),
    fail: new Int32Array(size),
    longest: new Int32Array(size),
  };
  const parent = new Int32Array(size);
  const via = new Int32Array(size);
  const byDepth: number[][] = [];
  let count = 1;
  for (const form of forms) {
    let node = 0;
    for (let i = 0; i < form.length; i++) {
      const unit = form.charCodeAt(i);
      let next = step(m, node, unit);
      // `step` may follow a fail link; fail links are not set yet, so it only does at the root.
      if (next === 0 || parent[next] !== node) {
        next = count++;
        parent[next] = node;
        via[next] = unit;
        if (node === 0) {
          m.root[unit] = next;
        } else if (m.unit[node] === -1) {
          m.unit[node] = unit;
          m.child[node] = next;
        } else {
          m.branches[node] = 1;
          m.others.set(node * 0x10000 + unit, next);
        }
        byDepth[i] ??= [];
        byDepth[i]?.push(next);
      }
      node = next;
    }
    m.longest[node] = form.length;
  }
  for (const node of byDepth.flat()) {
    const up = parent[node] ?? 0;
    m.fail[node] = up === 0 ? 0 : step(m, m.fail[up] ?? 0, via[node] ?? 0);
    m.longest[node] = Math.max(m.longest[node] ?? 0, m.longest[m.fail[node] ?? 0] ?? 0);
  }
  return m;
}

/** Where `matcher`'s forms occur in `view`, as disjoint [start, end) spans in order. */
function spansIn(view: string, m: Matcher): [number, number][] {
  const spans: [number, number][] = [];
  let state = 0;
  for (let i = 0; i < view.length; i++) {
    state = step(m, state, view.charCodeAt(i));
    const length = m.longest[state] ?? 0;
    if (length === 0) continue;
    let from = i + 1 - length;
    // A longer match may reach back over earlier ones: merge them (each is merged once).
    for (let last = spans.at(-1); last !== undefined && from <= last[1]; last = spans.at(-1)) {
      from = Math.min(from, last[0]);
      spans.pop();
    }
    spans.push([from, i + 1]);
  }
  return spans;
}

/**
 * `text` with every occurrence of any form replaced: in the decoded view (an escaped echo),
 * and, when that view differs, in the text as written (a secret holding `%aa` or `&lt;`).
 */
function redactText(text: string, matchers: readonly Matcher[]): string {
  if (matchers.length === 0 || text.length < MIN_SECRET_LENGTH) return text;
  const { view, toText, decoded } = decode(text);
  const spans = matchers.flatMap((matcher) =>
    spansIn(view, matcher).map(([start, end]) => [toText(start), toText(end)] as const),
  );
  if (decoded) spans.push(...matchers.flatMap((matcher) => spansIn(lowerAscii(text), matcher)));
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
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

/** A copy of `node` with its strings, member names and children redacted; undefined if none changed. */
function redactedCopy(
  node: Container,
  matchers: readonly Matcher[],
  copies: ReadonlyMap<Container, Container>,
): Container | undefined {
  let changed = false;
  const redactChild = (child: unknown): unknown => {
    const next =
      typeof child === 'string'
        ? redactText(child, matchers)
        : isContainer(child)
          ? (copies.get(child) ?? child)
          : child;
    changed ||= next !== child;
    return next;
  };
  if (Array.isArray(node)) {
    const items = node.map(redactChild);
    return changed ? items : undefined;
  }
  const entries = Object.entries(node).map(([name, item]): [string, unknown] => {
    const nextName = redactText(name, matchers);
    changed ||= nextName !== name;
    return [nextName, redactChild(item)];
  });
  // fromEntries defines members, so a `__proto__` name stays an ordinary member.
  return changed ? Object.fromEntries(entries) : undefined;
}

/**
 * Redacts strings and member names at any depth (a server may echo a key as a member
 * name). Only arrays and object literals are rebuilt (a class instance is the
 * application's own), and only where a secret was found: a value without one comes back
 * itself. The walk keeps its own stack (post-order, children before their parent), so deep
 * nesting cannot overflow the call stack; each object is walked once, so cycles end (an
 * object that contains itself keeps that one reference as it was).
 */
function redactValue(value: unknown, matchers: readonly Matcher[]): unknown {
  if (typeof value === 'string') return redactText(value, matchers);
  if (!isContainer(value)) return value;
  const copies = new Map<Container, Container>();
  const visited = new Set<Container>();
  const stack: { node: Container; expanded: boolean }[] = [{ node: value, expanded: false }];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if (top.expanded || visited.has(top.node)) {
      stack.pop();
      const copy = top.expanded ? redactedCopy(top.node, matchers, copies) : undefined;
      if (copy !== undefined) copies.set(top.node, copy);
      continue;
    }
    visited.add(top.node);
    top.expanded = true;
    for (const child of Object.values(top.node)) {
      if (isContainer(child) && !visited.has(child)) stack.push({ node: child, expanded: false });
    }
  }
  return copies.get(value) ?? value;
}

/**
 * Replaces every echo of `secrets` in `text`: as written, in any letter case,
 * percent-encoded (any characters, `+` for a space), JSON `\uXXXX`-escaped, HTML-escaped
 * (named, decimal, hex references), and base64 / base64url of the secret alone. Linear in
 * the text for a fixed set of secrets; secrets shorter than 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const index = buildIndex(realSecrets(secrets));
  return index === undefined ? text : redactText(text, [index]);
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

/** The automaton of some secrets, or undefined when there is none. */
type SecretIndex = Matcher | undefined;

function buildIndex(secrets: readonly string[]): SecretIndex {
  return secrets.length === 0 ? undefined : matcherOf(secrets);
}

/** A redactor over prebuilt automata (a connection's secrets, plus one call's own). */
function redactorOf(indexes: readonly SecretIndex[]): Redactor {
  const matchers = indexes.filter((index): index is Matcher => index !== undefined);
  if (matchers.length === 0) return (value) => value;
  return <T>(value: T): T => redactValue(value, matchers) as T;
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
