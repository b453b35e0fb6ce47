import { browserHref, decodeLinkText, schemeOf } from './href.js';

/** Where a link was found, which decides how a renderer decodes it. */
export type FoundUrlKind =
  /** Running text a linkifier may turn into a link (`https://…`, `//host/…`, `www.…`). */
  | 'text'
  /** A Markdown link or image target, `[label](url)`, or a reference definition `[id]: url`. */
  | 'markdown'
  /** A Markdown autolink, `<scheme:…>`. */
  | 'autolink'
  /** A URL attribute of an HTML tag (`<a href>`, `<img src>`, `on…` handlers included). */
  | 'html';

/** A link found in a text, with where it is. */
export interface FoundUrl {
  /** The link as written, without the punctuation that ends the sentence around it. */
  url: string;
  /** Offset of its first character in the text. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /**
   * What a browser opens: `url` after the renderer's decoding (backslash escapes, character
   * references such as `&#58;`) and the URL parser's (tabs and newlines removed). Relative
   * (`/cart`) and scheme-relative (`//host/…`) hrefs are kept as they are.
   */
  href: string;
  /** Where it was found. */
  kind: FoundUrlKind;
  /**
   * For `html`: the attribute it is the value of, in lower case (`href`, `action`; `content`
   * for the URL of a `<meta http-equiv="refresh">`).
   */
  attribute?: string;
}

/** Characters that open a sentence, a quote or emphasis rather than a URL when they come first. */
const LEADING = new Set(['(', '[', '{', '*', '_', '~', "'", '"', '`', '!', '¡', '¿']);
/**
 * Characters that end a sentence or a quote rather than a URL when they come last, and that
 * GFM renderers leave out of the link. `]`, `}`, `>` and a backtick are not among them: a
 * renderer keeps them in the href (`…]` opens `…%5D`), so the link is judged with them.
 */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*', '_', '~']);

/**
 * Longest attribute value (or destination) taken as one link by the attribute pass: longer
 * than any buy link; a longer value is reported cut, and never allowed (see
 * {@link isOpaqueHtml}).
 */
const MAX_ATTRIBUTE_VALUE = 4096;

/** Schemes a renderer links in running text without `//` (and those that run script). */
const BARE_SCHEMES = new Set([
  'http',
  'https',
  'ws',
  'wss',
  'mailto',
  'tel',
  'sms',
  'javascript',
  'vbscript',
  'data',
  'file',
  'blob',
  'intent',
  'ftp',
]);
/** Top-level domains a linkifier links without a path (`shop.com`); any two letters too. */
// A literal array, not a split string: bundlers can prove it pure and drop it when unused.
const COMMON_TLDS = new Set([
  'com',
  'net',
  'org',
  'info',
  'biz',
  'shop',
  'store',
  'online',
  'site',
  'app',
  'dev',
  'io',
  'xyz',
  'top',
  'club',
]);
const AUTHORITY = /^[\\/]{2}[^\\/\s]/;
const INNER_AUTHORITY = /:[\\/]{2}/;
/** `www.` anywhere in a word: renderers link it after punctuation too (`See:www.x.test`). */
const WWW = /www\d{0,3}\.[a-z0-9]/i;
const HOST_WITH_PATH = /[a-z0-9-]\.[a-z]{2,63}(?:[/?#\\]|:\d)/i;
const HOST_ONLY = /^(?:[a-z0-9-]+\.)+([a-z]{2,63})\.?$/i;

/**
 * Whether a linkifier (GFM, linkify-it) could make a link of a word of running text, judged
 * on the whole word: a scheme anywhere in it (`x//evil/https://…` is one link), two slashes
 * at its start, `www.` anywhere, an e-mail address (linked as `mailto:`), a host with a path,
 * or a host on a common top-level domain.
 */
function looksLikeLink(href: string): boolean {
  if (isEmail(href)) return true;
  const scheme = schemeOf(href);
  if (scheme !== undefined && BARE_SCHEMES.has(scheme) && href.length > scheme.length + 1) {
    return true;
  }
  if (INNER_AUTHORITY.test(href) || AUTHORITY.test(href) || WWW.test(href)) return true;
  if (HOST_WITH_PATH.test(href)) return true;
  const tld = HOST_ONLY.exec(href)?.[1]?.toLowerCase();
  return tld !== undefined && (tld.length === 2 || COMMON_TLDS.has(tld));
}

/**
 * The balance of round brackets in a span, kept up to date as characters are trimmed off its
 * end. Only `)` is dropped when unbalanced, as GFM does; `]` and `}` stay in the link.
 */
class BracketCounts {
  round = 0;

  constructor(text: string, start: number, end: number) {
    for (let i = start; i < end; i++) this.add(text.charCodeAt(i), 1);
  }

  /** Adds `by` for an opener and `-by` for a closer. */
  add(code: number, by: number): void {
    if (code === 40) this.round += by;
    else if (code === 41) this.round -= by;
  }

  /** True when `code` is `)` and the span holds more of them than of `(`. */
  unbalanced(code: number): boolean {
    return code === 41 && this.round < 0;
  }
}

/** Where a character reference that ends at `semicolon` starts (`&quot;`), or -1. */
function referenceStartBefore(text: string, semicolon: number, start: number): number {
  let i = semicolon - 1;
  while (i >= start && semicolon - i <= 32 && /[a-z0-9#]/i.test(text[i]!)) i--;
  return i >= start && text[i] === '&' && i < semicolon - 1 ? i : -1;
}

/**
 * The end of a word without what ends the sentence: trailing punctuation, a trailing
 * character reference, and `)` the word did not open (so `(see https://x.test/a_(b))` keeps
 * `a_(b)` but `(https://x.test/a)` loses `)`). One pass from the end with a running bracket
 * count: linear in the word.
 */
export function trimmedEnd(text: string, start: number, end: number): number {
  const counts = new BracketCounts(text, start, end);
  let cut = end;
  while (cut > start) {
    const last = text[cut - 1]!;
    if (last === ';') {
      const reference = referenceStartBefore(text, cut - 1, start);
      cut = reference >= 0 ? reference : cut - 1;
      continue;
    }
    const code = text.charCodeAt(cut - 1);
    if (TRAILING.has(last) || counts.unbalanced(code)) {
      // Dropping a closer is adding back what it took from its opener's balance.
      counts.add(code, -1);
      cut--;
      continue;
    }
    break;
  }
  return cut;
}

function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * Every Unicode white space (and U+FEFF, U+180E, which some renderers split at): a word of
 * running text ends at any of them, as a linkifier's does.
 */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    code === 0x180e ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const URL_ATTRIBUTE = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'srcset',
  'poster',
  'background',
  'cite',
  'data',
  'ping',
  'xlink:href',
  'longdesc',
  'usemap',
  'manifest',
  'codebase',
  'archive',
  'lowsrc',
  'dynsrc',
]);

/**
 * `name@host.tld` without spaces (a renderer links it as `mailto:`), checked without a
 * backtracking pattern: any `@` with something before it and a dot with something after
 * it later on.
 */
function isEmail(text: string): boolean {
  const at = text.indexOf('@');
  if (at <= 0) return false;
  const dot = text.lastIndexOf('.');
  return dot > at + 1 && dot < text.length - 1;
}

/** A span of the text a scanner hands over to be judged as a link. */
interface Span {
  start: number;
  end: number;
  kind: FoundUrlKind;
  attribute?: string;
}

/**
 * One left-to-right pass over a text. Markdown link targets, autolinks and URL attributes
 * are taken whole, wherever they are; the rest is split into words at whitespace and `<`,
 * and each word is judged whole, so no link is ever found inside a longer one. Every
 * character is visited a bounded number of times.
 */
class UrlScanner {
  readonly found: FoundUrl[] = [];
  /** Where the scan stopped because `limit` links were found, or `undefined`. */
  stoppedAt: number | undefined;
  readonly #text: string;
  readonly #limit: number;
  /** Spans inside an HTML tag already taken as URL attributes, in order. */
  readonly #skips: Span[] = [];
  /** The first of {@link #skips} not reached yet (an index, so taking one costs nothing). */
  #nextSkip = 0;
  /** Where that span starts (`Infinity` when none is pending), checked before each character. */
  #skipAt = Number.POSITIVE_INFINITY;
  /** The end of the last HTML tag parsed: a `<` before it is inside that tag. */
  #tagEnd = 0;

  constructor(text: string, limit = Number.POSITIVE_INFINITY) {
    this.#text = text;
    this.#limit = limit;
  }

  scan(): void {
    const text = this.#text;
    let word = 0;
    // Whether the current word holds a character a link needs (`:`, `/`, `\\`, `&`, an inner
    // `.`): prose words hold none, and skipping them keeps the scan cheap.
    let signal = false;
    let i = 0;
    while (i < text.length) {
      if (this.found.length >= this.#limit) {
        this.stoppedAt = i;
        return;
      }
      const code = text.charCodeAt(i);
      if (i >= this.#skipAt) {
        const skip = this.#takeSkip(i);
        if (skip) {
          if (signal) this.#word(word, i);
          this.#emit(skip);
          word = i = Math.max(i, skip.end);
          signal = false;
          continue;
        }
      }
      if (code === 32 || (code >= 9 && code <= 13) || (code > 127 && isSpace(code))) {
        if (signal) this.#word(word, i);
        word = ++i;
        signal = false;
        continue;
      }
      if (code === 93 || code === 60) {
        const next = this.#structure(i);
        if (next !== undefined) {
          if (signal) this.#word(word, i);
          word = i = next;
          signal = false;
          continue;
        }
      }
      if (code === 58 || code === 47 || code === 92 || code === 38) signal = true;
      else if (code === 46 && isWordCharacter(text.charCodeAt(i + 1))) signal = true;
      i++;
    }
    if (signal) this.#word(word, text.length);
    this.#takeSkip(text.length + 1);
  }

  /**
   * The URL attribute span starting at `i`. One that another construct jumped over (a `](`
   * inside a tag) is still judged, on its own.
   */
  #takeSkip(i: number): Span | undefined {
    let skip = this.#skips[this.#nextSkip];
    while (skip && skip.start < i) {
      this.#emit(skip);
      skip = this.#skips[++this.#nextSkip];
    }
    if (!skip || skip.start !== i) {
      this.#skipAt = skip?.start ?? Number.POSITIVE_INFINITY;
      return undefined;
    }
    this.#nextSkip++;
    this.#skipAt = this.#skips[this.#nextSkip]?.start ?? Number.POSITIVE_INFINITY;
    return skip;
  }

  /** A construct starting at `i` (a link target, autolink or tag): where scanning goes on. */
  #structure(i: number): number | undefined {
    const text = this.#text;
    const char = text[i];
    if (char === ']' && text[i + 1] === '(') return this.#destination(i + 2) ?? i + 2;
    // A reference definition may follow a container marker (`> [1]: …`, `- [1]: …`) and its
    // label may span lines: every `]:` is taken as one, which over-reports at worst.
    if (char === ']' && text[i + 1] === ':') return this.#destination(i + 2) ?? i + 2;
    if (char !== '<') return undefined;
    const autolink = this.#autolink(i);
    if (autolink !== undefined) return autolink;
    if (i >= this.#tagEnd) this.#tag(i);
    return i + 1;
  }

  /**
   * A Markdown link destination after `](` or `]:`: `<…>`, or a run without spaces whose
   * parentheses balance, backslash escapes skipped. Returns where it ends.
   */
  #destination(from: number): number | undefined {
    const text = this.#text;
    let i = from;
    let newlines = 0;
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n')) {
      if (text[i] === '\n' && ++newlines > 1) return undefined;
      i++;
    }
    if (text[i] === '<') {
      let end = i + 1;
      while (end < text.length && text[end] !== '>' && text[end] !== '\n' && text[end] !== '<') {
        end += text[end] === '\\' ? 2 : 1;
      }
      end = Math.min(end, text.length);
      this.#emit({ start: i + 1, end, kind: 'markdown' });
      return text[end] === '>' ? end + 1 : end;
    }
    let end = i;
    let depth = 0;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (code <= 0x20 || code === 0x7f) break;
      if (text[end] === '\\') {
        end = Math.min(end + 2, text.length);
        continue;
      }
      if (text[end] === '(') depth++;
      if (text[end] === ')' && depth-- === 0) break;
      end++;
    }
    this.#emit({ start: i, end, kind: 'markdown' });
    return end;
  }

  /** `<scheme:…>` or `<name@host>`: returns the end, or `undefined` when it is not one. */
  #autolink(at: number): number | undefined {
    const text = this.#text;
    let end = at + 1;
    while (end < text.length && text[end] !== '>' && text[end] !== '<') {
      if (isSpace(text.charCodeAt(end))) return undefined;
      end++;
    }
    if (text[end] !== '>') return undefined;
    const inside = text.slice(at + 1, end);
    if (!/^[a-z][a-z0-9+.-]{1,31}:/i.test(inside) && !isEmail(inside)) return undefined;
    this.#emit({ start: at + 1, end, kind: 'autolink' });
    return end + 1;
  }

  /**
   * An HTML tag at `at`: its URL attributes (and `on…` handlers) become spans taken whole
   * when the scan reaches them; the rest of the tag is scanned as text. A tag with no `>`
   * runs to the end of the text, as the most a renderer could take.
   */
  #tag(at: number): void {
    const text = this.#text;
    let i = at + 1;
    if (text[i] === '/') i++;
    const name = /^[a-z][a-z0-9:-]*/i.exec(text.slice(i, i + 64));
    if (!name) return;
    i += name[0].length;
    // Past `limit` pending spans the scan would stop before reaching them: parse no further.
    while (
      i < text.length &&
      text[i] !== '>' &&
      this.#skips.length - this.#nextSkip < this.#limit
    ) {
      if (isSpace(text.charCodeAt(i)) || text[i] === '/') {
        i++;
        continue;
      }
      i = this.#attribute(i);
    }
    this.#tagEnd = i;
  }

  /** One attribute from `at`: returns where the next one may start. */
  #attribute(at: number): number {
    const text = this.#text;
    let i = at + 1;
    while (i < text.length && !/[\s/>=]/.test(text[i]!)) i++;
    const name = text.slice(at, i).toLowerCase();
    let j = i;
    while (j < text.length && isSpace(text.charCodeAt(j))) j++;
    if (text[j] !== '=') return i;
    j++;
    while (j < text.length && isSpace(text.charCodeAt(j))) j++;
    const quote = text[j] === '"' || text[j] === "'" ? text[j] : undefined;
    const start = quote ? j + 1 : j;
    let end = start;
    while (end < text.length && (quote ? text[end] !== quote : !/[\s>]/.test(text[end]!))) end++;
    if ((URL_ATTRIBUTE.has(name) || name.startsWith('on')) && end > start) {
      this.#skips.push({ start, end, kind: 'html', attribute: name });
      this.#skipAt = Math.min(this.#skipAt, start);
    }
    return quote && end < text.length ? end + 1 : end;
  }

  /** A word of running text from `start` to `end`: a link when a linkifier could make one. */
  #word(start: number, end: number): void {
    const text = this.#text;
    let from = start;
    while (from < end && LEADING.has(text[from]!)) from++;
    const to = trimmedEnd(text, from, end);
    if (to <= from) return;
    const url = text.slice(from, to);
    const href = browserHref(decodeLinkText(url, true));
    if (looksLikeLink(href)) this.found.push({ url, start: from, end: to, href, kind: 'text' });
  }

  #emit(span: Span): void {
    emitSpan(this.#text, span, this.found);
  }
}

function emitSpan(text: string, span: Span, into: FoundUrl[]): void {
  if (span.end <= span.start) return;
  const url = text.slice(span.start, span.end);
  const href = browserHref(decodeLinkText(url, span.kind === 'markdown'));
  const found: FoundUrl = { url, start: span.start, end: span.end, href, kind: span.kind };
  if (span.attribute !== undefined) found.attribute = span.attribute;
  into.push(found);
}

/** Characters of an attribute name, as far as the attribute pass needs to read one. */
function isNameCharacter(code: number): boolean {
  return isWordCharacter(code) || code === 45 || code === 58 || code === 95;
}

/** What may stand before an attribute name in a tag: space, `/`, or the end of a quoted value. */
function opensAttribute(code: number): boolean {
  return Number.isNaN(code) || isSpace(code) || code === 47 || code === 34 || code === 39;
}

/** A refresh delay before its URL (`0;url=…`, `5, …`): `content` of `<meta http-equiv>`. */
const REFRESH = /^\s*[\d.]*\s*[;,]\s*(?:url\s*=\s*)?['"]?/i;

/**
 * The attribute pass: every `name=value` anywhere in the text whose name is a URL attribute
 * (or an `on…` handler, or a `content` holding a refresh URL), preceded by what may precede
 * an attribute. It knows nothing of tags, code spans or escapes, so no construct can hide
 * one from it; a value is never skipped, so a `href=` inside another value is found too.
 * Each value end is looked up from a cursor that only moves forward: linear in the text.
 */
class AttributeScanner {
  readonly found: FoundUrl[] = [];
  stoppedAt: number | undefined;
  readonly #text: string;
  readonly #limit: number;
  /** Per stop kind (`"`, `'`, unquoted): the last search's start and the stop it found. */
  readonly #from = new Map<string, number>();
  readonly #stop = new Map<string, number>();

  constructor(text: string, limit: number) {
    this.#text = text;
    this.#limit = limit;
  }

  scan(): void {
    const text = this.#text;
    let spaceEnd = 0;
    for (let at = text.indexOf('='); at >= 0; at = text.indexOf('=', at + 1)) {
      if (this.found.length >= this.#limit) {
        this.stoppedAt = at;
        return;
      }
      const name = this.#nameBefore(at);
      if (name === undefined) continue;
      // Spaces after `=` run to the next non-space, which no later `=` lies before.
      let start = Math.max(at + 1, spaceEnd);
      while (start < text.length && isSpace(text.charCodeAt(start))) start++;
      spaceEnd = start;
      this.#value(name, start);
    }
  }

  /** The URL-carrying attribute name ending just before `=` at `at` (spaces allowed), if any. */
  #nameBefore(at: number): string | undefined {
    const text = this.#text;
    let end = at;
    while (end > 0 && at - end < 64 && isSpace(text.charCodeAt(end - 1))) end--;
    let start = end;
    while (start > 0 && end - start < 32 && isNameCharacter(text.charCodeAt(start - 1))) start--;
    if (start === end || !opensAttribute(text.charCodeAt(start - 1))) return undefined;
    const name = text.slice(start, end).toLowerCase();
    const url = URL_ATTRIBUTE.has(name) || name.startsWith('on') || name === 'content';
    return url ? name : undefined;
  }

  /** The value starting at `start` (after `=` and spaces), cut at {@link MAX_ATTRIBUTE_VALUE}. */
  #value(name: string, start: number): void {
    const text = this.#text;
    const quote = text[start] === '"' || text[start] === "'" ? text[start]! : '';
    const from = quote ? start + 1 : start;
    const end = Math.min(this.#stopAfter(quote, from), from + MAX_ATTRIBUTE_VALUE);
    if (name !== 'content') {
      emitSpan(text, { start: from, end, kind: 'html', attribute: name }, this.found);
      return;
    }
    const refresh = REFRESH.exec(text.slice(from, Math.min(end, from + 64)));
    if (refresh) {
      const url = { start: from + refresh[0].length, end, kind: 'html' as const, attribute: name };
      emitSpan(text, url, this.found);
    }
  }

  /** Where a value opened by `quote` (`''` for unquoted) starting at `from` ends. */
  #stopAfter(quote: string, from: number): number {
    const text = this.#text;
    const lastFrom = this.#from.get(quote);
    const lastStop = this.#stop.get(quote);
    // No stop lies in [lastFrom, lastStop): a later start inside it shares that stop.
    if (lastFrom !== undefined && lastStop !== undefined && from >= lastFrom && from <= lastStop) {
      return lastStop;
    }
    let stop: number;
    if (quote) {
      stop = text.indexOf(quote, from);
      if (stop < 0) stop = text.length;
    } else {
      stop = from;
      while (stop < text.length && text[stop] !== '>' && !isSpace(text.charCodeAt(stop))) stop++;
    }
    this.#from.set(quote, from);
    this.#stop.set(quote, stop);
    return stop;
  }
}

/**
 * True for an HTML attribute value that no true link would be and that the first pass may
 * have jumped over whole: cut at {@link MAX_ATTRIBUTE_VALUE}, or holding white space, `<`,
 * `>`, a quote or a backtick (a fake tag's value running over text). Such a value is never
 * allowed, so what it covers cannot pass unseen.
 */
export function isOpaqueHtml(found: FoundUrl): boolean {
  if (found.kind !== 'html') return false;
  return found.end - found.start >= MAX_ATTRIBUTE_VALUE || /[\s<>"'`]/.test(found.url);
}

/**
 * Every link in a text that a Markdown renderer or a browser could make clickable, found
 * the way they find them: Markdown link and image targets (`[label](url)`) of any scheme,
 * relative ones included; autolinks (`<url>`); URL attributes of HTML tags (`<a href>`);
 * and in running text, each word a linkifier could link (a scheme such as `https:`,
 * `javascript:` or `data:`, scheme-relative `//host/…`, backslashes, `www.`, a host with a
 * path), taken whole with only the punctuation that ends the sentence trimmed, so a link
 * is never found inside a longer one. Linear in the length of the text.
 */
export function findUrls(text: string): FoundUrl[] {
  return scanUrls(text).found;
}

/**
 * {@link findUrls}, stopping once `limit` links are found: `stoppedAt` is where the rest of
 * the text begins, unread.
 */
export function scanUrls(
  text: string,
  limit = Number.POSITIVE_INFINITY,
): { found: FoundUrl[]; stoppedAt: number | undefined } {
  const scanner = new UrlScanner(text, limit);
  scanner.scan();
  // A second, independent pass over every `name=` that looks like a URL attribute, so a
  // fake tag (`<b title="` in a code span) that derails the first pass hides nothing.
  const attributes = new AttributeScanner(text, limit);
  attributes.scan();
  const found = union(scanner.found, attributes.found);
  const stops = [scanner.stoppedAt, attributes.stoppedAt].filter((at) => at !== undefined);
  return { found: inOrder(found), stoppedAt: stops.length > 0 ? Math.min(...stops) : undefined };
}

/** The links of the first pass, and those of the attribute pass it did not find itself. */
function union(first: FoundUrl[], attributes: FoundUrl[]): FoundUrl[] {
  const ends = new Map<number, number>();
  for (const found of first) if (found.kind === 'html') ends.set(found.start, found.end);
  for (const found of attributes) if (ends.get(found.start) !== found.end) first.push(found);
  return first;
}

function inOrder(found: FoundUrl[]): FoundUrl[] {
  // Only a URL attribute jumped over by another construct comes out of order.
  for (let i = 1; i < found.length; i++) {
    if (found[i]!.start < found[i - 1]!.start) return found.sort((a, b) => a.start - b.start);
  }
  return found;
}
