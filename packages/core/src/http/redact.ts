/**
 * Removes secrets from text the service sent back (a `detail` echoing the key, an HTML page)
 * before an error, a log line or a model gets it: one pass reads the text through a one-layer
 * decode and steps a KMP matcher of each of the secrets' forms (docs/SECURITY.md, "Secrets").
 */
export type Redactor = <T>(value: T) => T;

const REDACTED = '[redacted]';
const MIN_SECRET_LENGTH = 4; // a shorter "secret" would shred ordinary text
/** The longest secret the client sends (a common header limit): longer ones are refused. */
export const MAX_SECRET_LENGTH = 16_384;
/** Answers nest at most 64 levels, requests 256: a deeper container is not walked. */
const MAX_DEPTH = 300;
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
 * A secret's forms as the text reads them, each with its KMP failure table (`fail[j]`: the
 * longest proper border of units 0..j): as written; as JSON.stringify writes it; its base64
 * and base64url, unpadded; and its own characters undecoded, which is how an encoder that
 * escapes every `%`, `&` and `\` it writes reads back (encodeURIComponent, HTML references).
 */
function formsOf(owner: string) {
  let bytes = ''; // byte by byte: spreading 100 K of them overflows the stack
  for (const byte of new TextEncoder().encode(owner)) bytes += String.fromCharCode(byte);
  const base64 = btoa(bytes).replace(/=+$/, '');
  const json = JSON.stringify(owner).slice(1, -1);
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
  return [...new Set(readings)].map((reading) => {
    const [units, fail] = [new Uint16Array(reading.length), new Int32Array(reading.length)];
    for (let j = 0; j < reading.length; j++) units[j] = reading.charCodeAt(j);
    for (let j = 1, k = 0; j < reading.length; j++) {
      while (k > 0 && units[j] !== units[k]) k = fail[k - 1]!;
      fail[j] = units[j] === units[k] ? ++k : k;
    }
    return { units, fail, owner };
  });
}

/** The forms of the secrets of one redactor (missing, short and repeated ones dropped). */
function secretsOf(list: readonly (string | undefined)[]) {
  const long = (s?: string): s is string => (s ?? '').length >= MIN_SECRET_LENGTH;
  const secrets = [...new Set(list)].filter(long);
  const forms = secrets.flatMap(formsOf).filter((form) => form.units.length >= MIN_SECRET_LENGTH);
  const lengths = forms.map((form) => form.units.length);
  // The forms each unit begins, by its low 7 bits: a unit that begins none, while none is under
  // way, is passed over; otherwise it steps the forms under way and the few it begins.
  const starting = Array.from({ length: 128 }, (): number[] => []);
  for (const [f, form] of forms.entries()) starting[form.units[0]! & 127]!.push(f);
  // The secrets a JSON number could spell, as JSON.parse reads them (it rounds past 2^53).
  const numbers = new Set(secrets.filter((s) => /^[-+.\deE]+$/.test(s)).map(Number));
  const [shortest, longest] = [Math.min(...lengths), Math.max(0, ...lengths)];
  // Each form's KMP state (zero between passes), and the forms under way.
  const [states, active] = [new Int32Array(forms.length), new Int32Array(forms.length)];
  return { secrets, forms, starting, numbers, shortest, longest, states, active };
}
type Secrets = ReturnType<typeof secretsOf>;
/** Each container a walk reached: its copy, or `[redacted]` while it is being walked. */
type Walked = Map<unknown, unknown>;

/**
 * Where the forms of `set` occur in `text`, as merged [start, end) spans; their owners to
 * `found`. Each decoded unit moves the KMP state of every form under way or that it begins
 * (fallbacks amortised): linear in the text for each form, whatever its shape (`indexOf` of
 * `-`×1500 in dashes is quadratic).
 */
function scan(text: string, set: Secrets, found?: Set<string>): number[][] {
  const { forms, starting, longest, states, active } = set;
  if (!starts || starts.length < longest)
    starts = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(longest, 4096))));
  const [ring, mask, spans] = [starts, starts.length - 1, [] as number[][]];
  let live = 0; // forms under way, in `active`
  for (let i = 0, k = 0; i < text.length; k++) {
    let unit = text.charCodeAt(i);
    ring[k & mask] = i++;
    if (opens(unit)) [unit, i] = [escaped(text, i - 1, unit), next];
    unit = fold(unit);
    const begun = starting[unit & 127]!;
    if (live === 0 && begun.length === 0) continue;
    let length = 0; // of the longest form ending here
    let kept = 0; // forms still under way
    // The forms under way, then those the unit begins (one stepped already is passed over).
    for (let a = 0; a < live + begun.length; a++) {
      const f = a < live ? active[a]! : begun[a - live]!;
      const { units: form, fail, owner } = forms[f]!;
      let state = states[f]!;
      if (state === 0 ? form[0] !== unit : a >= live) continue;
      while (state > 0 && form[state] !== unit) state = fail[state - 1]!;
      if (form[state] === unit && ++state === form.length) {
        length = Math.max(length, state);
        state = fail[state - 1]!;
        found?.add(owner);
      }
      states[f] = state;
      if (state > 0) active[kept++] = f;
    }
    live = kept;
    if (length === 0) continue;
    let from = ring[(k + 1 - length) & mask]!;
    while (spans.length > 0 && from <= spans.at(-1)![1]!) from = Math.min(from, spans.pop()![0]!);
    spans.push([from, i]);
  }
  states.fill(0);
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

/**
 * Strings, member names and numbers that spell a secret, redacted; only the arrays and
 * object literals that hold one are rebuilt (class instances are the application's own). A
 * cycle, or a container deeper than {@link MAX_DEPTH}, reads `[redacted]`: the stack is bounded.
 */
function redactValue(value: unknown, set: Secrets, depth: number, done: Walked): unknown {
  if (typeof value === 'string') return redactText(value, set);
  if (typeof value === 'number')
    return set.numbers.has(value) ||
      (set.numbers.size > 0 && redactText(`${value}`, set) !== `${value}`)
      ? REDACTED
      : value;
  const array = Array.isArray(value);
  const prototype = value !== null && typeof value === 'object' && Object.getPrototypeOf(value);
  if (!array && prototype !== Object.prototype && prototype !== null) return value;
  if (depth > MAX_DEPTH || done.get(value) === REDACTED) return REDACTED;
  if (done.has(value)) return done.get(value);
  done.set(value, REDACTED); // until it is walked: a reference back to it is a cycle
  // A list by index (a hole reads undefined: no item moves), an object by its own members; a
  // loop, not a callback, so a level costs one stack frame. Each member is redacted in place.
  const members: [string, unknown][] = array
    ? Array.from(value as unknown[], (item) => ['', item])
    : Object.entries(value as object);
  let changed = false;
  for (const member of members) {
    const [name, item] = member;
    if (!array) member[0] = redactText(name, set);
    member[1] = redactValue(item, set, depth + 1, done);
    changed ||= member[0] !== name || member[1] !== item;
  }
  // fromEntries defines members, so a `__proto__` name stays an ordinary member.
  const copy = !changed ? value : array ? members.map((m) => m[1]) : Object.fromEntries(members);
  done.set(value, copy);
  return copy;
}

/**
 * A redactor of `secrets` in strings, member names and numbers at any depth: as written, in
 * any ASCII letter case, percent-encoded, JSON-escaped, HTML-escaped, and base64 / base64url
 * of the secret alone, one layer deep (docs/SECURITY.md). Secrets shorter than 4 characters
 * are ignored. Linear in the text: O(text × forms), one to five forms a secret.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  let set: Secrets | undefined; // built at the first use: most answers need no redaction
  return <T>(value: T) => {
    set ??= secretsOf(secrets);
    return (set.forms.length === 0 ? value : redactValue(value, set, 0, new Map())) as T;
  };
}

/** The secrets `text` echoes in a form {@link createRedactor} removes, in the order given, once. */
export function secretEchoesIn(text: string, secrets: readonly (string | undefined)[]): string[] {
  const [set, found] = [secretsOf(secrets), new Set<string>()];
  scan(text, set, found);
  return set.secrets.filter((secret) => found.has(secret));
}
