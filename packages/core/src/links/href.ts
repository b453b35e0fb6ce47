/**
 * What a browser opens for a link as written: the Markdown renderer's decoding (backslash
 * escapes, character references), then the URL parser's (tabs and newlines removed, spaces
 * trimmed, backslashes read as slashes). Everything here is one pass over its input.
 */

/**
 * The named character references that can change what a URL means, or that a model may
 * write by mistake. A name outside this table is left as written: the link then differs
 * from every buy link, so it is reported, never verified.
 */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  AMP: '&',
  lt: '<',
  LT: '<',
  gt: '>',
  GT: '>',
  quot: '"',
  QUOT: '"',
  apos: "'",
  colon: ':',
  sol: '/',
  bsol: '\\',
  period: '.',
  quest: '?',
  num: '#',
  equals: '=',
  percnt: '%',
  commat: '@',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  lcub: '{',
  rcub: '}',
  lbrace: '{',
  rbrace: '}',
  Tab: '\t',
  NewLine: '\n',
  nbsp: '\u00a0',
  excl: '!',
  dollar: '$',
  plus: '+',
  comma: ',',
  semi: ';',
  ast: '*',
  midast: '*',
  lowbar: '_',
  UnderBar: '_',
  grave: '`',
  DiacriticalGrave: '`',
  Hat: '^',
  vert: '|',
  verbar: '|',
  VerticalLine: '|',
};

// Marked pure: bundlers cannot tell that a Set built from a string has no side effect.
const ASCII_PUNCTUATION = /* @__PURE__ */ new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

function codePointText(code: number): string {
  // Zero, surrogates and values past Unicode become U+FFFD, as HTML decodes them.
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return String.fromCodePoint(valid ? code : 0xfffd);
}

function isDigit(code: number, hex: boolean): boolean {
  if (code >= 48 && code <= 57) return true;
  return hex && ((code >= 65 && code <= 70) || (code >= 97 && code <= 102));
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** A numeric reference at `at` (`&#58;`, `&#x3a`; HTML decodes them without `;` too). */
function numericReference(text: string, at: number): { text: string; end: number } | undefined {
  const hex = text[at + 2] === 'x' || text[at + 2] === 'X';
  let end = at + (hex ? 3 : 2);
  const first = end;
  // At most 8 digits: enough for any code point, and a bound on the work per reference.
  while (end < text.length && end - first < 8 && isDigit(text.charCodeAt(end), hex)) end++;
  if (end === first) return undefined;
  const code = Number.parseInt(text.slice(first, end), hex ? 16 : 10);
  return { text: codePointText(code), end: text[end] === ';' ? end + 1 : end };
}

/** A named reference at `at` (`&colon;`), only with its `;` and only from {@link NAMED}. */
function namedReference(text: string, at: number): { text: string; end: number } | undefined {
  let end = at + 1;
  while (end < text.length && end - at <= 32 && isAlphanumeric(text.charCodeAt(end))) end++;
  if (text[end] !== ';') return undefined;
  const value = NAMED[text.slice(at + 1, end)];
  return value === undefined ? undefined : { text: value, end: end + 1 };
}

/** The character reference starting at `at` (an `&`), if any. */
function referenceAt(text: string, at: number): { text: string; end: number } | undefined {
  return text[at + 1] === '#' ? numericReference(text, at) : namedReference(text, at);
}

/**
 * Decodes character references and, for Markdown (`markdown: true`), backslash escapes of
 * ASCII punctuation: the string a renderer puts in the `href`.
 */
export function decodeLinkText(raw: string, markdown: boolean): string {
  if (!raw.includes('&') && !(markdown && raw.includes('\\'))) return raw;
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const char = raw[i]!;
    if (char === '\\' && markdown && ASCII_PUNCTUATION.has(raw[i + 1] ?? '')) {
      out += raw[i + 1];
      i += 2;
      continue;
    }
    const reference = char === '&' ? referenceAt(raw, i) : undefined;
    if (reference) {
      out += reference.text;
      i = reference.end;
      continue;
    }
    out += char;
    i++;
  }
  return out;
}

/**
 * What the URL parser keeps of an `href`: every ASCII tab and newline removed (so
 * `java\tscript:` is `javascript:`), leading and trailing controls and spaces trimmed.
 */
export function browserHref(decoded: string): string {
  // Loops rather than `/\s+$/`: a regex anchored at the end retries every run of spaces.
  let start = 0;
  let end = decoded.length;
  while (start < end && decoded.charCodeAt(start) <= 0x20) start++;
  while (end > start && decoded.charCodeAt(end - 1) <= 0x20) end--;
  const trimmed = decoded.slice(start, end);
  return /[\t\n\r]/.test(trimmed) ? trimmed.replace(/[\t\n\r]/g, '') : trimmed;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Two slashes either way round: `//`, `\\`, `/\`, `\/` all start an authority in a browser. */
const AUTHORITY = /^[\\/]{2}/;
/** A host name with a dot, as linkifiers find a link without a scheme (`www.shop.test/x`). */
const BARE_HOST = /^(?:[a-z0-9-]+\.)+[a-z]{2,63}(?=$|[/?#:])/i;

/** The scheme of an href in lower case (`https`), or `undefined` for a relative one. */
export function schemeOf(href: string): string | undefined {
  return SCHEME.exec(href)?.[0].slice(0, -1).toLowerCase();
}

/**
 * The absolute URL a browser opens for an href on a web page: a scheme-relative href
 * (`//host`) takes `https:`, a bare host (`www.shop.test/x`) takes `http:` as linkifiers give
 * it; a path relative to the page gives `undefined` (it stays on the application's site).
 */
export function openedUrl(href: string): URL | undefined {
  let absolute: string | undefined;
  if (SCHEME.test(href)) absolute = href;
  else if (AUTHORITY.test(href)) absolute = `https:${href}`;
  else if (BARE_HOST.test(href)) absolute = `http://${href}`;
  if (absolute === undefined) return undefined;
  try {
    return new URL(absolute);
  } catch {
    return undefined;
  }
}

/** The host a browser would contact for an href (`http:` or `https:` only), lower case. */
export function webHostOf(href: string): string | undefined {
  const url = openedUrl(href);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return url.hostname;
}
