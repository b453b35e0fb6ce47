/**
 * Removes secrets from text the service sent back (a `detail` echoing the key, an HTML page)
 * before an error, a log line or a model gets it: one pass reads the text through a one-layer
 * decode and steps a KMP matcher of each of the secrets' forms.
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
function formsOf(owner: string) {
  let bytes = ''; // byte by byte: spreading 100 K of them overflows the stack
  for (const byte of new TextEncoder().encode(owner)) bytes += String.fromCharCode(byte);
  const base64 = btoa(bytes).replace(/=+$/, '');
  const json = JSON.stringify(owner).slice(1, -1);
  // The last one is read without decoding: the secret's own characters.
  const forms = [owner, json, base64, base64.replace(/\+/g, '-').replace(/\//g, '_'), owner];
  const readings = forms.map((form, f) => {
    let out = '';
    for (let i = 0; i < form.length; ) {
      let unit = form.charCodeAt(i++);
      if (f < 4 && opens(unit)) [unit, i] = [escaped(form, i - 1, unit), next];
      out += String.fromCharCode(fold(unit));
    }
    return out;
  });
  // Each as units, with its KMP failure table: `fail[j]`, the longest proper border of 0..j.
  return [...new Set(readings)]
    .filter((text) => text.length >= MIN_SECRET_LENGTH)
    .map((text) => {
      const [units, fail] = [new Uint16Array(text.length), new Int32Array(text.length)];
      for (let j = 0; j < text.length; j++) units[j] = text.charCodeAt(j);
      for (let j = 1, k = 0; j < text.length; j++) {
        while (k > 0 && units[j] !== units[k]) k = fail[k - 1]!;
        fail[j] = units[j] === units[k] ? ++k : k;
      }
      return { units, owner, fail };
    });
}

/** The secrets of one redactor (missing, very short and repeated ones dropped), their forms. */
function secretsOf(list: readonly (string | undefined)[]) {
  const secrets = [...new Set(list)].filter(
    (s): s is string => (s ?? '').length >= MIN_SECRET_LENGTH,
  );
  const forms = secrets.flatMap(formsOf);
  const lengths = forms.map((form) => form.units.length);
  // The forms that start with each ASCII unit (a wider one's filed under its low 7 bits).
  const starting = Array.from({ length: 128 }, (): number[] => []);
  for (const [f, form] of forms.entries()) starting[form.units[0]! & 127]!.push(f);
  // The secrets a JSON number could spell, as JSON.parse reads them (it rounds past 2^53).
  const numbers = new Set(secrets.filter((s) => /^[-+.\deE]+$/.test(s)).map(Number));
  const [shortest, longest] = [Math.min(...lengths), Math.max(0, ...lengths)];
  // A pass's KMP state of each form, and the forms under way: zero again after each pass.
  const [states, active] = [new Int32Array(forms.length), new Int32Array(forms.length)];
  return { secrets, forms, starting, numbers, shortest, longest, states, active };
}
type Secrets = ReturnType<typeof secretsOf>;

/**
 * Where the forms of `set` occur in `text`, as merged [start, end) spans; their owners to
 * `found`. Each decoded unit moves the KMP state of the forms under way (fallbacks amortised)
 * and starts those it begins: linear in the text for each form, whatever its shape (`indexOf`
 * of `-`×1500 in dashes is quadratic).
 */
function scan(text: string, set: Secrets, found?: Set<string>): number[][] {
  const { forms, starting, longest, states, active } = set;
  if (!starts || starts.length < longest)
    starts = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(longest, 4096))));
  const [ring, spans] = [starts, [] as number[][]];
  const mask = ring.length - 1;
  let n = 0; // forms under way, in `active`
  for (let i = 0, k = 0; i < text.length; k++) {
    let unit = text.charCodeAt(i);
    ring[k & mask] = i++;
    if (opens(unit)) [unit, i] = [escaped(text, i - 1, unit), next];
    unit = fold(unit);
    const started = starting[unit & 127]!;
    if (n === 0 && started.length === 0) continue; // most text: nothing under way or starting
    let length = 0; // of the longest form ending here
    let kept = 0; // forms still under way
    for (let a = 0; a < n; a++) {
      const f = active[a]!;
      const { units: form, fail, owner } = forms[f]!;
      let state = states[f]!;
      while (state > 0 && form[state] !== unit) state = fail[state - 1]!;
      if (form[state] === unit && ++state === form.length) {
        length = Math.max(length, state);
        state = fail[state - 1]!;
        found?.add(owner);
      }
      states[f] = state;
      if (state > 0) active[kept++] = f;
    }
    n = kept;
    // A form not under way starts at its first unit (forms are at least 4 units long).
    for (const f of started) {
      if (states[f] !== 0 || forms[f]!.units[0] !== unit) continue;
      states[f] = 1;
      active[n++] = f;
    }
    if (length === 0) continue;
    let from = ring[(k + 1 - length) & mask]!;
    while (spans.length > 0 && from <= spans.at(-1)![1]!) from = Math.min(from, spans.pop()![0]!);
    spans.push([from, i]);
  }
  for (let a = 0; a < n; a++) states[active[a]!] = 0;
  return spans;
}

/** `text` with each echo of the secrets replaced, the rest kept as written. */
function redactText(text: string, set: Secrets): string {
  // Decoding only shortens a text: one shorter than every form holds none.
  const spans = text.length < set.shortest ? [] : scan(text, set);
  let [out, done] = ['', 0];
  for (const [from = 0, to = 0] of spans)
    [out, done] = [out + text.slice(done, from) + REDACTED, to];
  return spans.length === 0 ? text : out + text.slice(done);
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
function redactValue(value: unknown, set: Secrets): unknown {
  if (set.forms.length === 0) return value;
  const [copies, visited] = [new Map<unknown, Container>(), new Set<Container>()];
  // A number is read as its text only where a secret could be one (a key of digits).
  const redact = (item: unknown) =>
    typeof item === 'string'
      ? redactText(item, set)
      : typeof item === 'number' &&
          set.numbers.size > 0 &&
          (set.numbers.has(item) || redactText(`${item}`, set) !== `${item}`)
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
        const pair: [string, unknown] = [array ? name : redactText(name, set), redact(item)];
        changed ||= pair[0] !== name || pair[1] !== item;
        return pair;
      });
      // fromEntries defines members, so a `__proto__` name stays an ordinary member.
      if (changed) copies.set(node, array ? entries.map((e) => e[1]) : Object.fromEntries(entries));
    }
  }
  return redact(value);
}

/**
 * Replaces every echo of `secrets` in `text`: as written, in any ASCII letter case,
 * percent-encoded, JSON-escaped, HTML-escaped, and base64 / base64url of the secret alone,
 * one layer deep (docs/SECURITY.md). Secrets shorter than 4 characters are ignored. Linear
 * in the text for given secrets: O(text × forms), one to five forms a secret.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return redactText(text, secretsOf(secrets));
}

/** The secrets `text` echoes in a form {@link redactSecrets} removes, in the order given, once. */
export function secretEchoesIn(text: string, secrets: readonly (string | undefined)[]): string[] {
  const [set, found] = [secretsOf(secrets), new Set<string>()];
  scan(text, set, found);
  return set.secrets.filter((secret) => found.has(secret));
}

/**
 * A redactor of `secrets` in strings and member names, deeply, as {@link redactSecrets}
 * (O(text × forms)); the forms are built at its first use.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  let set: Secrets | undefined; // built at the first use: most answers need no redaction
  return <T>(value: T) => {
    set ??= secretsOf(secrets);
    return redactValue(value, set) as T;
  };
}
