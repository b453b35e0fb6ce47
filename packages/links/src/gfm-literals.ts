import type { MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';

/*
 * GFM's literal links (`https://…`, `www.…`, e-mail) by GFM's own rules, found twice as
 * remark-gfm does: while parsing, in the raw source (micromark-extension-gfm-autolink-literal),
 * then in each decoded text outside links (mdast-util-gfm-autolink-literal). test/gfm.test.ts
 * checks it against remark-gfm. Linear: failed attempts reuse their run's scan, trails are memoized.
 */

type Char = string | undefined; // `undefined`: the end of the text
const test = (pattern: RegExp) => (c: Char) => c !== undefined && pattern.test(c);
const isAlpha = test(/^[A-Za-z]$/);
const isAlnum = test(/^[\dA-Za-z]$/);
const isAtext = test(/^[\w+.-]$/);
/** micromark's whitespace and punctuation (`\p{P}` or `\p{S}`), per UTF-16 unit as it reads. */
const isSpace = test(/^\s$/);
const isPunct = test(/^(?:\p{P}|\p{S})$/u);
const isEnd = (c: Char) => c === undefined || isSpace(c);
/** Punctuation that ends a link when only more of it, then an end, follows. */
const TRAIL = '!"\')*,.:;?_~';

/** What a sticky expression matches at `i` (`''` for none), without copying the text. */
function matchAt(pattern: RegExp, text: string, i: number): string {
  pattern.lastIndex = i;
  return pattern.exec(text)?.[0] ?? '';
}

/** Per inline parse: the trail memo, the last domain scanned, `[` not yet closed. */
type Domain = Record<'from' | 'end' | 'dot' | 'under' | 'underPrev' | 'seen', number>;
type Scan = { trail: Map<number, boolean>; domain?: Domain; open: number };
const scans = new WeakMap<StateInline, Scan>();
function scanOf(state: StateInline): Scan {
  const scan = scans.get(state) ?? { trail: new Map(), open: 0 };
  if (!scans.has(state)) scans.set(state, scan);
  return scan;
}

/** Whether the punctuation from `i` is trailing (not part of the link): `tokenizeTrail`. */
function isTrail(src: string, i: number, memo: Map<number, boolean>): boolean {
  const visited: number[] = [];
  let result = memo.get(i);
  for (; result === undefined; result ??= memo.get(i)) {
    visited.push(i);
    const c = src[i];
    if (c !== undefined && TRAIL.includes(c)) i++;
    else if (c === '&') {
      // `&name;` counts as trailing; any other `&` continues the link.
      const name = matchAt(/&[A-Za-z]+;/y, src, i);
      if (name) i += name.length;
      else result = false;
    } else if (c === ']') {
      if (isEnd(src[i + 1]) || src[i + 1] === '(' || src[i + 1] === '[') result = true;
      else i++;
    } else result = c === '<' || isEnd(c);
  }
  for (const position of visited) memo.set(position, result);
  return result;
}

/** A domain's end from `from`, or -1 (no character, `_` in its last two labels); scans reused. */
function domainEnd(src: string, from: number, scan: Scan): number {
  let d = scan.domain;
  if (!d || from < d.from || from >= d.end) {
    d = { from, end: from, dot: -1, under: -1, underPrev: -1, seen: -1 };
    for (let c = src[d.end]; ; c = src[++d.end]) {
      if (c === '.' || c === '_') {
        if (isTrail(src, d.end, scan.trail)) break;
        if (c === '_') d.under = d.end;
        else [d.underPrev, d.dot] = [d.under > d.dot ? d.under : -1, d.end];
      } else if (isEnd(c) || (c !== '-' && isPunct(c))) break;
      else d.seen = d.end;
    }
    scan.domain = d;
  }
  const underLast = d.under > d.dot && d.under >= from;
  const underPrev = d.dot >= from && d.underPrev >= from;
  return underLast || underPrev || d.seen < from ? -1 : d.end;
}

/** Where a link's path from `i` ends: at whitespace, or before trailing punctuation. */
function pathEnd(src: string, i: number, memo: Map<number, boolean>): number {
  let [open, close] = [0, 0];
  for (let c = src[i]; !isEnd(c); c = src[++i]) {
    if (c === '(') open++;
    else if (c === ')' && close < open) close++;
    else if (`${TRAIL}&<]`.includes(c!)) {
      if (isTrail(src, i, memo)) return i;
      if (c === ')') close++;
    }
  }
  return i;
}

/** The end of a literal link at `p` by micromark's tokenizer, and its URL; or undefined. */
function literalAt(src: string, p: number, scan: Scan): [number, string] | undefined {
  const before = src[p - 1];
  if (isAtext(src[p]) && before !== '/' && !isAtext(before)) {
    // An e-mail address: atext, `@`, labels with a dot not at their end, ending in a letter.
    const email = matchAt(EMAIL, src, p);
    if (email.includes('.', email.indexOf('@')) && isAlpha(email.at(-1))) {
      return [p + email.length, `mailto:${email}`];
    }
  }
  // `http(s)://` then a character that can start a domain, or `www.` then anything.
  const scheme = isAlpha(before) ? '' : (/^https?:\/\//i.exec(src.slice(p, p + 8))?.[0] ?? '');
  const c = src[p + scheme.length];
  const www = /^www\./i.test(src.slice(p, p + 4)) && p + 4 < src.length && isWwwBefore(before);
  if (scheme ? isEnd(c) || c! < ' ' || c === '\x7f' || isPunct(c) : !www) return undefined;
  const domain = domainEnd(src, p + scheme.length, scan);
  const end = domain < 0 ? -1 : pathEnd(src, domain, scan.trail);
  return end < 0 ? undefined : [end, (scheme ? '' : 'http://') + src.slice(p, end)];
}
const EMAIL = /[\w+.-]+@(?:[\w-]|\.(?=[\dA-Za-z]))+/y;
const isWwwBefore = (c: Char) => c === undefined || ' \t\n\r(*_[]~'.includes(c);

/** Whether a literal link may start at `p`, by the character there and the one before. */
function mayStart(src: string, p: number): boolean {
  const [c, before] = [src[p], src[p - 1]];
  if (isAtext(c) && before !== '/' && !isAtext(before)) return true;
  return /[hH]/.test(c!) ? !isAlpha(before) : /[wW]/.test(c!) && isWwwBefore(before);
}

type Make = (type: string, tag: string, nesting: -1 | 0 | 1) => Token;
/** The tokens of a literal link, as markdown-it's linkify made them. */
function linkTokens(make: Make, href: string, text: string): void {
  const open = make('link_open', 'a', 1);
  open.attrs = [['href', href]];
  make('text', '', 0).content = text;
  const close = make('link_close', 'a', -1);
  for (const token of [open, close]) [token.markup, token.info] = ['linkify', 'auto'];
}

/** The inline rule: a literal link starting here, by micromark's tokenizer. */
function literal(state: StateInline, silent: boolean): boolean {
  // Inside a link's label (or a label being measured), GFM finds no literal link.
  if (silent || state.linkLevel > 0) return false;
  const { src, pos } = state;
  if (src[pos] === '\\' && /^[^\n!-/:-@[-`{-~]/.test(src.slice(pos + 1, pos + 2))) {
    // `\` before no punctuation is text; the next character starts anew, as in micromark.
    state.pending += '\\';
    state.pos++;
    return true;
  }
  const scan = scanOf(state);
  const whole = state.posMax === src.length && scan.open === 0;
  const found = whole ? literalAt(src, pos, scan) : undefined;
  if (!found) return false;
  linkTokens(state.push.bind(state), found[1], src.slice(pos, found[0]));
  state.pos = found[0];
  return true;
}

/** markdown-it's text rule, also stopping where a literal link may start. */
function text(state: StateInline, silent: boolean): boolean {
  const { src, posMax } = state;
  let pos = state.pos;
  const stop = (i: number) => TERMINATORS.includes(src[i]!) || (i > state.pos && mayStart(src, i));
  while (pos < posMax && !stop(pos)) pos++;
  if (pos === state.pos) return false;
  if (!silent) state.pending += src.slice(state.pos, pos);
  state.pos = pos;
  return true;
}
const TERMINATORS = '\n!#$%&*+-:<=>@[\\]^_`{}~';

/** Counts `[` markdown-it did not make a link (runs after its rules), less `]`: GFM's parse
 * finds no literal link after an unclosed `[`. */
function brackets(state: StateInline, silent: boolean): boolean {
  if (silent || state.linkLevel > 0) return false;
  const scan = scanOf(state);
  if (state.src[state.pos] === '[') scan.open++;
  else if (state.src[state.pos] === ']') scan.open = Math.max(0, scan.open - 1);
  return false;
}

/** A piece of a text: text, or a literal link found in it. */
type Piece = { text: string; href?: string };

/** A label GFM refuses as one of a domain's last two: an underscore, or no letter or digit. */
const isBadLabel = (label: string) =>
  label !== '' && (label.includes('_') || !/[\dA-Za-z]/.test(label));

/** A URL without its trailing punctuation (parentheses kept while they balance), and the rest. */
function splitUrl(url: string): [string, string] {
  let index = url.length;
  while (index > 0 && '!"&\'),.:;<>?]}'.includes(url[index - 1]!)) index--;
  let [head, trail] = [url.slice(0, index), url.slice(index)];
  let closing = head.split(')').length - 1;
  const opening = head.split('(').length - 1;
  for (let paren = trail.indexOf(')'); paren !== -1 && opening > closing; closing++) {
    [head, trail] = [head + trail.slice(0, paren + 1), trail.slice(paren + 1)];
    paren = trail.indexOf(')');
  }
  return [head, trail];
}

/** The `[\w.-]` run a domain is in, scanned once: its end, last dots, whether those labels fail. */
type Run = Record<'from' | 'end' | 'dot' | 'prevDot', number> &
  Record<'badLast' | 'badPrev', boolean>;
function runAt(text: string, from: number, run: Run | undefined): Run {
  if (run && from >= run.from && from < run.end) return run;
  let [end, dot, prevDot] = [from, -1, from - 1];
  for (; end < text.length && /[\w.-]/.test(text[end]!); end++) {
    if (text[end] === '.') [prevDot, dot] = [dot < 0 ? from - 1 : dot, end];
  }
  const badLast = dot >= 0 && isBadLabel(text.slice(dot + 1, end));
  const badPrev = dot >= 0 && isBadLabel(text.slice(prevDot + 1, dot));
  return { from, end, dot, prevDot, badLast, badPrev };
}

/**
 * mdast-util-gfm-autolink-literal's `/(?<![\da-z])(https?:\/\/|www(?=\.))([\w-]*\.[\w\-.]*)([^\t\n\r ]*)/gi`
 * and `findUrl`, by hand: its expression rescans a rejected domain from each `www` in it.
 */
function urlsInText(text: string): Piece[] {
  const pieces: Piece[] = [];
  let [run, start]: [Run | undefined, number] = [undefined, 0];
  for (let i = 0; i < text.length; i++) {
    const before = text[i - 1];
    const head = /^(?:https?:\/\/|www(?=\.))/i.exec(text.slice(i, i + 8))?.[0];
    if (!head || isAlnum(before)) continue;
    run = runAt(text, i + head.length, run);
    const www = head.length === 3;
    const domainStart = www ? i : i + head.length;
    // The domain group needs a dot reached by `[\w-]*`; then `findUrl`'s checks.
    if (run.dot < i + head.length || (before !== undefined && !isSpace(before) && !isPunct(before)))
      continue;
    // A start inside the next-to-last label (`www` just before the last dot) shortens it.
    const shorter = domainStart > run.prevDot + 1;
    const badPrev = shorter ? isBadLabel(text.slice(domainStart, run.dot)) : run.badPrev;
    if (isPunct(text[domainStart]) || run.badLast || badPrev) continue;
    const end = run.end + matchAt(/[^\t\n\r ]*/y, text, run.end).length;
    const [url, trail] = splitUrl(text.slice(domainStart, end));
    const scheme = www ? '' : head;
    if (i > start) pieces.push({ text: text.slice(start, i) });
    pieces.push({ text: scheme + url, href: (www ? 'http://' : scheme) + url });
    if (trail) pieces.push({ text: trail });
    [start, i] = [end, end - 1];
  }
  if (start < text.length) pieces.push({ text: text.slice(start) });
  return pieces;
}

/** The transform's other expressions, in its order, each with its check: a link, or false. */
const ADDRESS = String.raw`([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)`;
const PASSES: Array<[RegExp, (match: RegExpExecArray) => string | false]> = [
  [
    new RegExp(String.raw`(?<![\w+\-.@])xmpp:${ADDRESS}(\/(?:[\w\-/]|\.(?=[\dA-Za-z]))*)?`, 'g'),
    (match) => {
      const resource = match[3];
      const next = match.input[match.index + match[0].length];
      return resource && (!/[A-Za-z]$/.test(resource) || next === '@') ? false : match[0];
    },
  ],
  [new RegExp(String.raw`(?<![\w+\-.@])mailto:${ADDRESS}`, 'g'), (match) => match[0]],
  [
    new RegExp(String.raw`(?<![\w+\-.]|(?:^|[^\d@A-Za-z])(?:mailto|xmpp):)${ADDRESS}`, 'g'),
    (match) => `mailto:${match[0]}`,
  ],
];

/** One pass of `findAndReplace` over a text: a rejected match is retried one character on. */
function replaceIn(text: string, [find, check]: (typeof PASSES)[number]): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  find.lastIndex = 0;
  for (let match = find.exec(text); match; match = find.exec(text)) {
    // Every address pass refuses a domain ending in a digit, `-` or `_`.
    const href = /[\d\-_]$/.test(match[2]!) ? false : check(match);
    if (href === false) {
      find.lastIndex = match.index + 1;
      continue;
    }
    if (match.index > start) pieces.push({ text: text.slice(start, match.index) });
    pieces.push({ text: match[0], href });
    start = find.lastIndex;
  }
  if (start < text.length) pieces.push({ text: text.slice(start) });
  return pieces;
}

/** The core rule: literal links in each text token outside links (after entities are decoded). */
function literalsInTextTokens(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    const make: Make = (type, tag, nesting) =>
      out[out.push(new state.Token(type, tag, nesting)) - 1]!;
    let depth = 0;
    for (const token of block.children) {
      depth += token.type === 'link_open' ? 1 : token.type === 'link_close' ? -1 : 0;
      if (token.type !== 'text' || depth > 0) {
        out.push(token);
        continue;
      }
      let pieces = urlsInText(token.content);
      for (const pass of PASSES) {
        pieces = pieces.flatMap((piece) =>
          piece.href === undefined ? replaceIn(piece.text, pass) : [piece],
        );
      }
      for (const { text, href } of pieces) {
        if (href === undefined) make('text', '', 0).content = text;
        else linkTokens(make, href, text);
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
