/** A URL found in a text, with where it is. */
export interface FoundUrl {
  /** The URL as written, without the punctuation that ends the sentence around it. */
  url: string;
  /** Offset of its first character in the text. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

// A scheme URL (any case: a model may shout it), or a bare host with a path (a model may drop
// the scheme). Whitespace, quotes, angle brackets and backticks end a URL in running text.
const URL_PATTERN =
  /\bhttps?:\/\/[^\s<>"`]+|(?<![\w@/.:-])(?:[a-z0-9-]+\.)+[a-z]{2,}\/[^\s<>"`]*/gi;

/** Characters that end a sentence or a quote rather than a URL when they come last. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '*', '_', '~']);
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/**
 * Drops what ends the sentence: trailing punctuation, and closing brackets the URL did not
 * open (so `(see https://x.test/a_(b))` keeps `a_(b)` but `(https://x.test/a)` loses `)`).
 */
function trimTrailing(url: string): string {
  let end = url.length;
  while (end > 0) {
    const last = url[end - 1]!;
    const opener = CLOSERS[last];
    const body = url.slice(0, end);
    if (TRAILING.has(last) || (opener && count(body, last) > count(body, opener))) {
      end--;
      continue;
    }
    break;
  }
  return url.slice(0, end);
}

/**
 * Every URL in a text: plain, in markdown (`[label](url)`, `[url](url)`), angle-bracketed
 * (`<url>`), or followed by punctuation (`url.`, `url,`, `(url)`). Markdown's `](` ends a
 * label, so `[https://a](https://a)` gives two URLs.
 */
export function findUrls(text: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    let raw = match[0];
    const labelEnd = raw.indexOf('](');
    if (labelEnd >= 0) raw = raw.slice(0, labelEnd);
    const url = trimTrailing(raw);
    if (url.length > 0) found.push({ url, start, end: start + url.length });
    // The link target after a `](` is a URL of its own.
    if (labelEnd >= 0) {
      const rest = text.slice(start + labelEnd + 2, start + match[0].length);
      for (const inner of findUrls(rest)) {
        const offset = start + labelEnd + 2;
        found.push({ url: inner.url, start: inner.start + offset, end: inner.end + offset });
      }
    }
  }
  return found;
}
