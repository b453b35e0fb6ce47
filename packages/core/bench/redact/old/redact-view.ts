// The redactor's "decoded view" of text: escapes decoded and look-alikes folded, in one
// linear pass per layer, with a map from each view character back to the span of the
// original text it came from. Secrets are looked for in the view, and the original spans
// are removed. Every loop here moves forward by at least one character per step, and each
// escape reads a bounded number of characters, so a layer costs O(text length).

/** Text with, for each of its UTF-16 units, the span [start, end) of the original it stands for. */
export interface MappedText {
  text: string;
  /** Start of each unit's span in the original text; undefined: the identity. */
  starts: Int32Array | undefined;
  /** End of each unit's span in the original text; undefined: the identity. */
  ends: Int32Array | undefined;
  /**
   * Instead of `starts`/`ends` (the fast fold of plain ASCII text): for each character the
   * fold dropped, the index in `text` it would have had. A unit's place in the original is
   * its index plus the number of drops at or before it.
   */
  drops?: Int32Array;
}

/** Number of entries of the non-decreasing `sorted` that are at most `value`. */
function countUpTo(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The span [start, end) of the original text that units [from, to) of `mapped` stand for. */
export function originalSpan(mapped: MappedText, from: number, to: number): [number, number] {
  if (mapped.drops !== undefined) {
    const start = from + countUpTo(mapped.drops, from);
    return [start, to - 1 + countUpTo(mapped.drops, to - 1) + 1];
  }
  return [mapped.starts?.[from] ?? from, mapped.ends?.[to - 1] ?? to];
}

/** A growing output of a layer: units and their spans, never longer than the input. */
class Builder {
  readonly units: Uint16Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.units = new Uint16Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  push(unit: number, start: number, end: number): void {
    this.units[this.length] = unit;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }

  /** A code point, as one or two units sharing the span. */
  pushCodePoint(code: number, start: number, end: number): void {
    if (code < 0x10000) {
      this.push(code, start, end);
      return;
    }
    const offset = code - 0x10000;
    this.push(0xd800 + (offset >> 10), start, end);
    this.push(0xdc00 + (offset & 0x3ff), start, end);
  }

  done(): MappedText {
    const units = this.units.subarray(0, this.length);
    return {
      text: unitsToString(units),
      starts: this.starts.subarray(0, this.length),
      ends: this.ends.subarray(0, this.length),
    };
  }
}

const UTF16 = /* @__PURE__ */ new TextDecoder('utf-16le');

/** UTF-16 units as a string (lone surrogates become U+FFFD, one unit each). */
function unitsToString(units: Uint16Array): string {
  return UTF16.decode(new Uint8Array(units.buffer, units.byteOffset, units.byteLength));
}

const startOf = (input: MappedText, index: number) => input.starts?.[index] ?? index;
const endOf = (input: MappedText, index: number) => input.ends?.[index] ?? index + 1;

// ---------------------------------------------------------------------------------------
// Folding: what is invisible or interchangeable in echoed text goes or becomes one form.

// Dropped: whitespace (MIME wraps base64 every 76 columns; a key may be split by spaces),
// `+` and `-` (form encoding writes a space as `+`; base64's `+` is base64url's `-`), and
// invisible format characters (soft hyphen, zero-width space and joiners, BOM: `\p{Cf}`).
// `_` is read as `/` (base64url). Secrets are folded the same way, so they are still found.
const FORMAT_CHAR = /^\p{Cf}$/u;

/** The folded unit of `unit`, or -1 to drop it. ASCII letters lower-cased. */
function foldUnit(unit: number): number {
  if (unit >= 0xff01 && unit <= 0xff5e) return foldUnit(unit - 0xfee0); // fullwidth ASCII
  if (unit >= 0x41 && unit <= 0x5a) return unit + 0x20;
  if (unit === 0x5f) return 0x2f; // base64url `_` is base64 `/`
  if (unit <= 0x20 || unit === 0x2b || unit === 0x2d || unit === 0x7f) return -1;
  if (unit < 0x80) return unit;
  if (unit === 0xa0 || unit === 0x3000) return -1; // no-break and ideographic spaces
  return FORMAT_CHAR.test(String.fromCharCode(unit)) ? -1 : unit;
}

const NOT_ASCII = /[\u0080-\uffff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the fold drops control characters.
const DROPPED_ASCII = /[\x00-\x20+\-\x7f]+/g;

/**
 * The fold of plain ASCII text as it is (no map yet): native lower-casing and replacing,
 * with only the dropped characters' places recorded. Most text takes this path.
 */
function foldAscii(text: string): MappedText {
  const drops: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit <= 0x20 || unit === 0x2b || unit === 0x2d || unit === 0x7f) {
      drops.push(index - drops.length);
    }
  }
  const folded = text.toLowerCase().replace(DROPPED_ASCII, '').replace(/_/g, '/');
  return { text: folded, starts: undefined, ends: undefined, drops: Int32Array.from(drops) };
}

/** `input` folded: one pass, each unit kept (mapped), replaced or dropped. */
export function fold(input: MappedText): MappedText {
  const { text } = input;
  if (input.starts === undefined && !NOT_ASCII.test(text)) return foldAscii(text);
  const out = new Builder(text.length);
  for (let index = 0; index < text.length; index++) {
    const unit = foldUnit(text.charCodeAt(index));
    if (unit >= 0) out.push(unit, startOf(input, index), endOf(input, index));
  }
  return out.done();
}

/** A plain string folded (for secrets): the same rules as {@link fold}. */
export function foldString(value: string): string {
  return fold({ text: value, starts: undefined, ends: undefined }).text;
}

// ---------------------------------------------------------------------------------------
// Decoding: one layer of percent escapes, HTML character references and backslash escapes.

/** HTML5 named references of ASCII punctuation (and the legacy ones without `;`). */
export const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  plus: '+',
  sol: '/',
  bsol: '\\',
  equals: '=',
  percnt: '%',
  num: '#',
  excl: '!',
  dollar: '$',
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  comma: ',',
  period: '.',
  colon: ':',
  semi: ';',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  rsqb: ']',
  rbrack: ']',
  hat: '^',
  lowbar: '_',
  grave: '`',
  lcub: '{',
  lbrace: '{',
  rcub: '}',
  rbrace: '}',
  verbar: '|',
  vert: '|',
  tilde: '~',
  hyphen: '-',
  dash: '-',
  nbsp: '\u00a0',
  shy: '\u00ad',
};
const LEGACY_NAMED = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'shy']);
const MAX_REFERENCE = 12;

const hexValue = (unit: number): number => {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

/** A decoded escape: the code point and the index just after it. */
type Decoded = { code: number; next: number } | undefined;

/** `count` hex digits at `at` (exactly), as a number. */
function hexDigits(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index++) {
    const digit = hexValue(text.charCodeAt(index));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** `%XX` at `at`: the byte. */
function percentByte(text: string, at: number): number {
  return text.charCodeAt(at) === 0x25 ? hexDigits(text, at + 1, 2) : -1;
}

/** Length of a UTF-8 sequence from its lead byte; 0 when it is not a lead byte. */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** A percent-encoded character at `at` (a UTF-8 sequence of `%XX`), or its first byte alone. */
function decodePercent(text: string, at: number): Decoded {
  const lead = percentByte(text, at);
  if (lead < 0) return undefined;
  const length = utf8Length(lead);
  let code = length === 2 ? lead & 0x1f : length === 3 ? lead & 0x0f : lead & 0x07;
  if (length <= 1) return { code: lead, next: at + 3 };
  for (let index = 1; index < length; index++) {
    const byte = percentByte(text, at + 3 * index);
    if (byte < 0x80 || byte > 0xbf) return { code: lead, next: at + 3 };
    code = (code << 6) | (byte & 0x3f);
  }
  return { code, next: at + 3 * length };
}

/** `&#NN;`, `&#xHH;` (the `;` optional) or a named reference at `at`. */
function decodeReference(text: string, at: number): Decoded {
  if (text.charCodeAt(at + 1) === 0x23) return decodeNumericReference(text, at + 2);
  let end = at + 1;
  while (end < text.length && end - at <= MAX_REFERENCE && /[A-Za-z0-9]/.test(text[end] ?? '')) {
    end++;
  }
  const name = text.slice(at + 1, end);
  const value = NAMED_REFERENCES[name.toLowerCase()];
  if (value === undefined) return undefined;
  if (text.charCodeAt(end) === 0x3b) return { code: value.charCodeAt(0), next: end + 1 };
  return LEGACY_NAMED.has(name) ? { code: value.charCodeAt(0), next: end } : undefined;
}

function decodeNumericReference(text: string, at: number): Decoded {
  const isHex = (text.charCodeAt(at) | 0x20) === 0x78;
  const first = isHex ? at + 1 : at;
  let end = first;
  let code = 0;
  for (; end < text.length && end - first < MAX_REFERENCE; end++) {
    const unit = text.charCodeAt(end);
    const digit = isHex ? hexValue(unit) : unit >= 0x30 && unit <= 0x39 ? unit - 0x30 : -1;
    if (digit < 0) break;
    code = code * (isHex ? 16 : 10) + digit;
  }
  if (end === first || code > 0x10ffff) return undefined;
  return { code, next: text.charCodeAt(end) === 0x3b ? end + 1 : end };
}

/** `\xNN`, `\uNNNN`, `\u{…}`, or a backslash before any other character (that character). */
function decodeBackslash(text: string, at: number): Decoded {
  const kind = text.charCodeAt(at + 1);
  if (Number.isNaN(kind)) return undefined;
  if (kind === 0x78) {
    const code = hexDigits(text, at + 2, 2);
    if (code >= 0) return { code, next: at + 4 };
  }
  if (kind === 0x75 && text.charCodeAt(at + 2) === 0x7b) {
    const close = text.indexOf('}', at + 3);
    const code = close > at + 3 && close <= at + 9 ? hexDigits(text, at + 3, close - at - 3) : -1;
    if (code >= 0 && code <= 0x10ffff) return { code, next: close + 1 };
  }
  if (kind === 0x75) {
    const code = hexDigits(text, at + 2, 4);
    if (code >= 0) return { code, next: at + 6 };
  }
  return {
    code: text.codePointAt(at + 1) ?? kind,
    next: at + 1 + (kind >= 0xd800 && kind <= 0xdbff ? 2 : 1),
  };
}

function decodeAt(text: string, at: number): Decoded {
  const unit = text.charCodeAt(at);
  if (unit === 0x25) return decodePercent(text, at);
  if (unit === 0x26) return decodeReference(text, at);
  if (unit === 0x5c) return decodeBackslash(text, at);
  return undefined;
}

const ESCAPE = /[%&\\]/;

/**
 * One layer of decoding, or undefined when `input` has nothing to decode (so further layers
 * would change nothing either). Each escape becomes its character, spanning the escape.
 */
function decodeLayer(input: MappedText): MappedText | undefined {
  const { text } = input;
  if (!ESCAPE.test(text)) return undefined;
  const out = new Builder(text.length);
  let changed = false;
  for (let index = 0; index < text.length; ) {
    const decoded = decodeAt(text, index);
    if (decoded === undefined) {
      out.push(text.charCodeAt(index), startOf(input, index), endOf(input, index));
      index++;
      continue;
    }
    changed = true;
    out.pushCodePoint(decoded.code, startOf(input, index), endOf(input, decoded.next - 1));
    index = decoded.next;
  }
  return changed ? out.done() : undefined;
}

/** A plain string decoded once (for secrets); the string itself when nothing decodes. */
export function decodeString(value: string): string {
  return decodeLayer({ text: value, starts: undefined, ends: undefined })?.text ?? value;
}

/** Layers of decoding looked through: percent-encoding three times over is still read. */
export const DECODE_LAYERS = 3;

/**
 * The layers of `text` (as it is, then decoded once, twice and three times; fewer when a
 * layer has nothing left to decode), each with its folded view. All map back to `text`.
 */
export function* decodedViews(text: string): Generator<{ layer: MappedText; view: MappedText }> {
  let layer: MappedText | undefined = { text, starts: undefined, ends: undefined };
  for (let depth = 0; layer !== undefined && depth <= DECODE_LAYERS; depth++) {
    yield { layer, view: fold(layer) };
    layer = depth < DECODE_LAYERS ? decodeLayer(layer) : undefined;
  }
}
