import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';

/*
 * GFM's literal links (`https://…`, `www.…`, e-mail addresses) found by GFM's own rules, as
 * remark-gfm applies them (react-markdown, Streamdown), in place of linkify-it. remark-gfm finds
 * them twice, and so does this port: while parsing, at a character that can start one
 * (micromark-extension-gfm-autolink-literal: the raw source, across emphasis and other
 * markers), and then in each text node outside links (mdast-util-gfm-autolink-literal: the
 * decoded text). So a literal link is the same URL in `verifyBuyLinks`, `renderAnswerHtml` and
 * a GFM renderer. Every scan is linear: each failed attempt is bounded by a run of characters
 * no later attempt rescans, and the trail check is memoized per position.
 */

const isAsciiAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiAlnum = (c: number) => isAsciiAlpha(c) || (c >= 48 && c <= 57);
/** micromark's whitespace and punctuation (`\p{P}` or `\p{S}`), per UTF-16 unit as it reads. */
const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || /\s/.test(String.fromCharCode(c));
const isPunct = (c: number) => /\p{P}|\p{S}/u.test(String.fromCharCode(c));
/** An e-mail's local part: ASCII alphanumerics, `+`, `-`, `.`, `_`. */
const isAtext = (c: number) => isAsciiAlnum(c) || c === 43 || c === 45 || c === 46 || c === 95;
const END = -1;
const ASCII_PUNCT = /^[!-/:-@[-`{-~]$/;

/** Per parse: where the trail check ended, and the last domain scanned (see `domainEnd`). */
interface Scan {
  trail: Map<number, boolean>;
  domain?: {
    start: number;
    end: number;
    lastDot: number;
    underLast: number;
    underPrev: number;
    seen: number;
  };
  /** `[` that became text and no `]` has closed yet: GFM finds no literal after one. */
  open: number;
}
const scans = new WeakMap<StateInline, Scan>();
function scanOf(state: StateInline): Scan {
  const known = scans.get(state);
  if (known) return known;
  const scan: Scan = { trail: new Map(), open: 0 };
  scans.set(state, scan);
  return scan;
}

function at(src: string, i: number, max: number): number {
  return i < max ? src.charCodeAt(i) : END;
}

const TRAIL = new Set([33, 34, 39, 41, 42, 44, 46, 58, 59, 63, 95, 126]); // !"')*,.:;?_~
/**
 * Whether the punctuation from `i` is trailing (followed only by more trailing punctuation and
 * then an end), so not part of the link. micromark's `tokenizeTrail`; memoized per position.
 */
function isTrail(src: string, i: number, max: number, memo: Map<number, boolean>): boolean {
  const visited: number[] = [];
  let result: boolean | undefined;
  while (result === undefined) {
    const known = memo.get(i);
    if (known !== undefined) {
      result = known;
      break;
    }
    visited.push(i);
    const c = at(src, i, max);
    if (TRAIL.has(c)) i++;
    else if (c === 38) {
      let j = i + 1;
      while (isAsciiAlpha(at(src, j, max))) j++;
      if (j === i + 1 || at(src, j, max) !== 59) result = false;
      else i = j + 1;
    } else if (c === 93) {
      const next = at(src, i + 1, max);
      if (next === END || next === 40 || next === 91 || isSpace(next)) result = true;
      else i++;
    } else result = c === 60 || c === END || isSpace(c);
  }
  for (const position of visited) memo.set(position, result);
  return result;
}

/**
 * Where a domain from `start` ends, or -1 when GFM takes it for no domain (no character, or an
 * underscore in its last two labels). Starts inside the last domain scanned reuse its scan.
 */
function domainEnd(src: string, start: number, max: number, scan: Scan): number {
  let d = scan.domain;
  if (!d || start < d.start || start >= d.end) {
    d = { start, end: start, lastDot: -1, underLast: -1, underPrev: -1, seen: -1 };
    let i = start;
    for (;;) {
      const c = at(src, i, max);
      if (c === 46 || c === 95) {
        if (isTrail(src, i, max, scan.trail)) break;
        if (c === 95) d.underLast = i;
        else {
          d.underPrev = d.underLast > d.lastDot ? d.underLast : -1;
          d.lastDot = i;
        }
      } else if (c === END || isSpace(c) || (c !== 45 && isPunct(c))) break;
      else d.seen = i;
      i++;
    }
    d.end = i;
    scan.domain = d;
  }
  // The last two labels as seen from `start`: an underscore in either, and no character, fail.
  const underLast = d.underLast > d.lastDot && d.underLast >= start;
  const underPrev = d.lastDot >= start && d.underPrev >= start;
  return underLast || underPrev || d.seen < start ? -1 : d.end;
}

/** Where a link's path from `i` ends: at whitespace, or before trailing punctuation. */
function pathEnd(src: string, i: number, max: number, memo: Map<number, boolean>): number {
  let open = 0;
  let close = 0;
  for (;;) {
    const c = at(src, i, max);
    if (c === END || isSpace(c)) return i;
    if (c === 40) open++;
    else if (c === 41 && close < open) close++;
    else if (TRAIL.has(c) || c === 38 || c === 60 || c === 93) {
      if (isTrail(src, i, max, memo)) return i;
      if (c === 41) close++;
    }
    i++;
  }
}

/** `http://`, `https://` (any case) then a domain and a path: the link's end, or -1. */
function protocolEnd(src: string, p: number, max: number, scan: Scan): number {
  let i = p;
  while (i - p < 5 && isAsciiAlpha(at(src, i, max))) i++;
  const scheme = src.slice(p, i).toLowerCase();
  if ((scheme !== 'http' && scheme !== 'https') || src.slice(i, i + 3) !== '://') return -1;
  i += 3;
  const c = at(src, i, max);
  if (c === END || c < 32 || c === 127 || isSpace(c) || isPunct(c)) return -1;
  const domain = domainEnd(src, i, max, scan);
  return domain < 0 ? -1 : pathEnd(src, domain, max, scan.trail);
}

/** `www.` then a domain and a path. */
function wwwEnd(src: string, p: number, max: number, scan: Scan): number {
  if (!/^www\./i.test(src.slice(p, p + 4)) || p + 4 >= max) return -1;
  const domain = domainEnd(src, p, max, scan);
  return domain < 0 ? -1 : pathEnd(src, domain, max, scan.trail);
}

/** An e-mail address: atext, `@`, labels with at least one dot, ending in a letter. */
function emailEnd(src: string, p: number, max: number): number {
  let i = p;
  while (isAtext(at(src, i, max))) i++;
  if (at(src, i, max) !== 64) return -1;
  i++;
  let dot = false;
  let data = false;
  for (;;) {
    const c = at(src, i, max);
    if (c === 46 && isAsciiAlnum(at(src, i + 1, max))) dot = true;
    else if (c === 45 || c === 95 || isAsciiAlnum(c)) data = true;
    else break;
    i++;
  }
  return data && dot && isAsciiAlpha(src.charCodeAt(i - 1)) ? i : -1;
}

const WWW_BEFORE = new Set([END, 40, 42, 95, 91, 93, 126, 32, 9, 10, 13]); // ( * _ [ ] ~ space

/** Which literal links may start at `p`, by the character before it (GFM's `previous`). */
function startsAt(
  src: string,
  p: number,
  max: number,
): { email: boolean; http: boolean; www: boolean } {
  const c = at(src, p, max);
  const before = p > 0 ? src.charCodeAt(p - 1) : END;
  return {
    email: isAtext(c) && before !== 47 && !isAtext(before),
    http: (c === 72 || c === 104) && !isAsciiAlpha(before),
    www: (c === 87 || c === 119) && WWW_BEFORE.has(before),
  };
}

function pushLink(state: StateInline, href: string, text: string): void {
  const open = state.push('link_open', 'a', 1);
  open.attrs = [['href', href]];
  open.markup = 'linkify';
  open.info = 'auto';
  state.push('text', '', 0).content = text;
  const close = state.push('link_close', 'a', -1);
  close.markup = 'linkify';
  close.info = 'auto';
}

/** The inline rule: a literal link starting here, by micromark's tokenizer. */
function literal(state: StateInline, silent: boolean): boolean {
  // Inside a link's label (or a label being measured), GFM finds no literal link.
  if (silent || state.linkLevel > 0) return false;
  const { src, pos, posMax: max } = state;
  const next = at(src, pos + 1, max);
  if (
    src.charCodeAt(pos) === 92 &&
    next !== END &&
    next !== 10 &&
    !ASCII_PUNCT.test(src[pos + 1]!)
  ) {
    // A backslash before anything but punctuation is text, and the next character is read
    // anew (markdown-it's escape rule would take both together).
    state.pending += '\\';
    state.pos++;
    return true;
  }
  const scan = scanOf(state);
  if (scan.open > 0) return false;
  const can = startsAt(src, pos, max);
  let end = can.email ? emailEnd(src, pos, max) : -1;
  let href = end < 0 ? '' : `mailto:${src.slice(pos, end)}`;
  if (end < 0 && can.http) {
    end = protocolEnd(src, pos, max, scan);
    href = src.slice(pos, end);
  }
  if (end < 0 && can.www) {
    end = wwwEnd(src, pos, max, scan);
    href = `http://${src.slice(pos, end)}`;
  }
  if (end < 0) return false;
  pushLink(state, href, src.slice(pos, end));
  state.pos = end;
  return true;
}

/** markdown-it's text rule, also stopping where a literal link may start. */
function text(state: StateInline, silent: boolean): boolean {
  const { src, posMax: max } = state;
  let pos = state.pos;
  while (pos < max && !TERMINATORS.has(src.charCodeAt(pos))) {
    if (pos > state.pos) {
      const can = startsAt(src, pos, max);
      if (can.email || can.http || can.www) break;
    }
    pos++;
  }
  if (pos === state.pos) return false;
  if (!silent) state.pending += src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}
const TERMINATORS = new Set([
  10, 33, 35, 36, 37, 38, 42, 43, 45, 58, 60, 61, 62, 64, 91, 92, 93, 94, 95, 96, 123, 125, 126,
]);

/**
 * Counts `[` that markdown-it did not make a link or image (this rule runs after theirs) and
 * the `]` that close them: after an unclosed `[`, GFM's parse finds no literal link.
 */
function brackets(state: StateInline, silent: boolean): boolean {
  if (silent || state.linkLevel > 0) return false;
  const scan = scanOf(state);
  const c = state.src.charCodeAt(state.pos);
  if (c === 91) scan.open++;
  else if (c === 93 && scan.open > 0) scan.open--;
  return false;
}

// mdast-util-gfm-autolink-literal's transform: its expressions and checks, in its order. The
// first (URLs) is scanned by hand: GFM's own expression rescans a rejected domain from each
// `www` in it, quadratic in a word such as `www.a_www.a_…`.
const XMPP_IN_TEXT =
  /(?<![\w+\-.@])xmpp:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)(\/(?:[\w\-/]|\.(?=[\dA-Za-z]))*)?/g;
const MAILTO_IN_TEXT = /(?<![\w+\-.@])mailto:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g;
const EMAIL_IN_TEXT =
  /(?<![\w+\-.]|(?:^|[^\d@A-Za-z])(?:mailto|xmpp):)([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g;

/** A piece of a text node: text, or a link found in it. */
type Piece = { text: string; href?: string };

/** A label GFM refuses as one of a domain's last two: an underscore, or no letter or digit. */
const isBadLabel = (label: string) =>
  label !== '' && (label.includes('_') || !/[\dA-Za-z]/.test(label));
const isWordOrDot = (c: number) => isAsciiAlnum(c) || c === 95 || c === 45 || c === 46;

const SPLIT = new Set([33, 34, 38, 39, 41, 44, 46, 58, 59, 60, 62, 63, 93, 125]);
/** A URL without its trailing punctuation (parentheses kept while they balance), and the rest. */
function splitUrl(url: string): [string, string] {
  let index = url.length;
  while (index > 0 && SPLIT.has(url.charCodeAt(index - 1))) index--;
  let head = url.slice(0, index);
  let trail = url.slice(index);
  const opening = head.split('(').length - 1;
  let closing = head.split(')').length - 1;
  let paren = trail.indexOf(')');
  while (paren !== -1 && opening > closing) {
    head += trail.slice(0, paren + 1);
    trail = trail.slice(paren + 1);
    paren = trail.indexOf(')');
    closing++;
  }
  return [head, trail];
}

/** The `[\w.-]` run a domain is in: its end, its last two dots and labels, scanned once. */
interface Run {
  from: number;
  end: number;
  lastDot: number;
  prevDot: number;
  badLast: boolean;
  badPrev: boolean;
}
function runAt(text: string, from: number, run: Run | undefined): Run {
  if (run && from >= run.from && from < run.end) return run;
  let [end, lastDot, prevDot] = [from, -1, -1];
  while (end < text.length && isWordOrDot(text.charCodeAt(end))) {
    if (text.charCodeAt(end) === 46) [prevDot, lastDot] = [lastDot, end];
    end++;
  }
  const badLast = lastDot >= 0 && isBadLabel(text.slice(lastDot + 1, end));
  const badPrev = lastDot >= 0 && isBadLabel(text.slice(prevDot + 1, lastDot));
  return { from, end, lastDot, prevDot, badLast, badPrev };
}

/**
 * `/(?<![\da-z])(https?:\/\/|www(?=\.))([\w-]*\.[\w\-.]*)([^\t\n\r ]*)/gi` with `findUrl`, by
 * hand: each candidate start costs O(1) beyond one scan of each `[\w.-]` run.
 */
function urlsInText(text: string): Piece[] {
  const pieces: Piece[] = [];
  let run: Run | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const before = i > 0 ? text.charCodeAt(i - 1) : END;
    if (before !== END && isAsciiAlnum(before)) continue;
    const head = text.slice(i, i + 8).toLowerCase();
    const www = head.startsWith('www.');
    const length = www ? 3 : (/^https?:\/\//.exec(head)?.[0].length ?? 0);
    if (length === 0) continue;
    // The domain group: `[\w-]*` then a dot, then the rest of the run.
    const from = i + length;
    run = runAt(text, from, run);
    const dot = text.indexOf('.', from);
    if (dot < 0 || dot >= run.end || run.lastDot < 0) continue;
    // `findUrl`: the character before, the domain's first character and its last two labels.
    if (before !== END && !isSpace(before) && !isPunct(before)) continue;
    const domainStart = www ? i : from;
    if (isPunct(text.charCodeAt(domainStart))) continue;
    // A start inside the next-to-last label (`www` just before the last dot) shortens it.
    const badPrev =
      domainStart > run.prevDot + 1
        ? isBadLabel(text.slice(domainStart, run.lastDot))
        : run.badPrev;
    if (run.badLast || badPrev) continue;
    let pathEnd = run.end;
    while (pathEnd < text.length && !/[\t\n\r ]/.test(text[pathEnd]!)) pathEnd++;
    const [url, trail] = splitUrl(text.slice(domainStart, pathEnd));
    if (i > start) pieces.push({ text: text.slice(start, i) });
    const scheme = www ? '' : text.slice(i, from);
    pieces.push({ text: scheme + url, href: (www ? 'http://' : scheme) + url });
    if (trail) pieces.push({ text: trail });
    start = pathEnd;
    i = pathEnd - 1;
  }
  if (start < text.length) pieces.push({ text: text.slice(start) });
  return pieces;
}

type Find = (match: RegExpExecArray) => Piece[] | false;

const emailLike =
  (scheme: string): Find =>
  (match) =>
    /[\d\-_]$/.test(match[2]!)
      ? false
      : [{ text: match[0], href: `${scheme}${match[1]}@${match[2]}` }];
const findXmpp: Find = (match) => {
  const resource = match[3];
  if (/[\d\-_]$/.test(match[2]!)) return false;
  if (
    resource &&
    (!/[A-Za-z]$/.test(resource) || match.input.charAt(match.index + match[0].length) === '@')
  )
    return false;
  return [{ text: match[0], href: match[0] }];
};
const PASSES: Array<[RegExp, Find]> = [
  [XMPP_IN_TEXT, findXmpp],
  [
    MAILTO_IN_TEXT,
    (match) => (/[\d\-_]$/.test(match[2]!) ? false : [{ text: match[0], href: match[0] }]),
  ],
  [EMAIL_IN_TEXT, emailLike('mailto:')],
];

/** One pass of `findAndReplace` over a text: a rejected match is retried one character on. */
function replaceIn(text: string, find: RegExp, replace: Find): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  find.lastIndex = 0;
  for (let match = find.exec(text); match; match = find.exec(text)) {
    const found = replace(match);
    if (!found) {
      find.lastIndex = match.index + 1;
      continue;
    }
    if (match.index > start) pieces.push({ text: text.slice(start, match.index) });
    pieces.push(...found);
    start = match.index + match[0].length;
    find.lastIndex = start;
  }
  if (start < text.length) pieces.push({ text: text.slice(start) });
  return pieces;
}

/** The literal links of a decoded text, by the transform's four passes. */
export function literalsInText(text: string): Piece[] {
  let pieces = urlsInText(text);
  for (const [find, replace] of PASSES) {
    pieces = pieces.flatMap((piece) =>
      piece.href === undefined ? replaceIn(piece.text, find, replace) : [piece],
    );
  }
  return pieces;
}

/** The core rule: literal links in each text token outside links (after entities are decoded). */
function literalsInTextTokens(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let depth = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') depth++;
      if (token.type === 'link_close') depth--;
      if (token.type !== 'text' || depth > 0) {
        out.push(token);
        continue;
      }
      for (const piece of literalsInText(token.content)) {
        if (piece.href === undefined) {
          const part = new state.Token('text', '', 0);
          part.content = piece.text;
          out.push(part);
          continue;
        }
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [['href', piece.href]];
        open.markup = 'linkify';
        open.info = 'auto';
        const inner = new state.Token('text', '', 0);
        inner.content = piece.text;
        const close = new state.Token('link_close', 'a', -1);
        close.markup = 'linkify';
        close.info = 'auto';
        out.push(open, inner, close);
      }
    }
    block.children = out;
  }
}

/** Installs GFM's literal links in a markdown-it parser (with `linkify` off). */
export function gfmLiterals(md: MarkdownIt): void {
  md.inline.ruler.at('text', text);
  md.inline.ruler.before('text', 'gfm_literal', literal);
  md.inline.ruler.after('image', 'gfm_brackets', brackets);
  md.core.ruler.push('gfm_literal_text', literalsInTextTokens);
}
