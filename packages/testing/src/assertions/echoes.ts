/*
 * The two readings of a text the secrets check makes, each behind one small function so the
 * merge can swap it for the shared one:
 * - `findSecretEchoes(text, secrets)`: the secrets a text holds in the forms core's redactor
 *   finds (as written, any case, percent-encoded, JSON-escaped, HTML-escaped, base64, hex,
 *   reversed, a run of 12 characters). SEAM: becomes `findSecretEchoes` of
 *   `@catalogkit/core/errors`.
 * - `shopperView(text)`: the text as the shopper's renderer shows it (tags and invisible
 *   characters gone, character references decoded). SEAM: becomes the renderer's parse of
 *   `@catalogkit/links`.
 * Every pass is one regular-expression replace with no nested repetition: linear in the text.
 */
import { renderAnswerHtml } from '@catalogkit/links';

/** Secrets shorter than this are not searched for (they would match by chance). */
export const MIN_SECRET_LENGTH = 8;
/** Copies this long of any part of a secret count as the secret (a key split in two, say). */
const MIN_RUN = 12;
/** Layers of encoding peeled (`%2563` is `%63` is `c`). */
const DECODE_LAYERS = 3;

/** Separators a copy may put between a secret's characters (spaces, dashes, dots, quotes). */
const SEPARATORS = /[\s\-_.,:;|/\\'"`+*~()[\]{}<>]+/g;

/** Named character references a browser decodes that can spell out a key's characters. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  lowbar: '_',
  underbar: '_',
  hyphen: '-',
  dash: '-',
  period: '.',
  colon: ':',
  sol: '/',
  plus: '+',
  equals: '=',
  nbsp: ' ',
  shy: '',
};

function fromCode(code: number): string {
  return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** HTML character references: `&#99;`, `&#x63;`, `&#0099`, `&lowbar;` (semicolon optional). */
function decodeReferences(text: string): string {
  return text.replace(
    /&(?:#0*(\d{1,7})|#[xX]0*([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));?/g,
    (all, dec, hex, name) => {
      if (dec !== undefined) return fromCode(Number(dec));
      if (hex !== undefined) return fromCode(Number.parseInt(hex, 16));
      return NAMED[String(name).toLowerCase()] ?? all;
    },
  );
}

/** Percent-encoded bytes, every run decoded as UTF-8 (malformed bytes kept as they are). */
function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
  });
}

/** JSON and JavaScript escapes: `\u0063`, `\u{63}`, `\x63`, `\/`. */
function decodeEscapes(text: string): string {
  return text.replace(
    /\\(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}|x([0-9a-fA-F]{2})|([/"'\\]))/g,
    (_, u4, braced, x2, literal) => {
      if (literal !== undefined) return literal;
      return fromCode(Number.parseInt(u4 ?? braced ?? x2, 16));
    },
  );
}

/** The text with each layer of encoding peeled, every layer kept (a secret may be in any). */
function decodedViews(text: string): string[] {
  const views = [text];
  let current = text;
  for (let layer = 0; layer < DECODE_LAYERS; layer++) {
    const next = decodeEscapes(decodePercent(decodeReferences(current)));
    if (next === current) break;
    views.push(next);
    current = next;
  }
  return views;
}

function compact(text: string): string {
  return text.toLowerCase().replace(SEPARATORS, '');
}

/** The secret in base64 (and base64url) at each of the three byte offsets it may start at. */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const whole = bytes.subarray(offset, offset + Math.floor((bytes.length - offset) / 3) * 3);
    const standard = Buffer.from(whole).toString('base64');
    if (standard.length >= MIN_RUN)
      forms.push(standard, standard.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** The forms searched in lower-cased text: as is, hex, reversed. */
function lowerForms(secret: string): string[] {
  const lower = secret.toLowerCase();
  return [lower, Buffer.from(secret, 'utf8').toString('hex'), [...lower].reverse().join('')];
}

/** Every run of {@link MIN_RUN} characters of the secret, separators removed. */
function runsOf(secret: string): string[] {
  const bare = compact(secret);
  if (bare.length <= MIN_RUN) return [bare];
  return Array.from({ length: bare.length - MIN_RUN + 1 }, (_, i) =>
    bare.slice(i, i + MIN_RUN),
  ).filter(distinctive);
}

/**
 * A run of a secret worth finding alone: at least 6 different characters. `0000000000000000`
 * (the end of a demo key) is in prices and ids, so a run of it proves nothing.
 */
function distinctive(run: string): boolean {
  return new Set(run).size >= 6;
}

function holds(secret: string, view: string): boolean {
  const lower = view.toLowerCase();
  const bare = compact(view);
  return (
    lowerForms(secret).some((form) => lower.includes(form)) ||
    base64Forms(secret).some((form) => view.includes(form)) ||
    runsOf(secret).some((run) => bare.includes(run))
  );
}

/**
 * The secrets `text` holds as the model would read them: as written or in any case, in any of
 * up to three layers of percent-encoding, HTML character references or JSON / JavaScript
 * escapes, as base64 or base64url, hex, reversed, or as any run of 12 of its characters with
 * separators removed. Secrets shorter than 8 characters are not searched for.
 */
export function findSecretEchoes(text: string, secrets: readonly string[]): string[] {
  const views = decodedViews(text);
  return [...new Set(secrets)].filter(
    (secret) => secret.length >= MIN_SECRET_LENGTH && views.some((view) => holds(secret, view)),
  );
}

/** Characters a renderer shows as nothing: zero-width spaces and joiners, soft hyphens, BOM. */
const INVISIBLE =
  /[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]|[\ufe00-\ufe0f]/g;

/**
 * The text as the shopper's renderer shows it: HTML comments and tags removed (what they hold
 * between them is what is shown), character references decoded, invisible characters dropped.
 * Markdown's own marks (`**`, `_`, `` ` ``, `\`) are separators to {@link findSecretEchoes}.
 */
export function shopperView(text: string): string {
  const untagged = withoutComments(text).replace(/<\/?[a-zA-Z][^<>]*>/g, '');
  return decodeReferences(untagged).replace(INVISIBLE, '').replace(IGNORABLE, '');
}

/** Every character Unicode says a renderer may show as nothing (tag characters, joiners). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The answer's Markdown rendered by the links package's parse (the shopper's renderer: links
 * as their text, entities decoded), then read as the shopper sees it.
 */
function renderedView(text: string): string {
  return shopperView(renderAnswerHtml(text, []));
}

/** The text without HTML comments (an unclosed one runs to the end, as in a browser). */
function withoutComments(text: string): string {
  let shown = '';
  let at = 0;
  for (let open = text.indexOf('<!--'); open !== -1; open = text.indexOf('<!--', at)) {
    shown += text.slice(at, open);
    const close = text.indexOf('-->', open + 4);
    at = close === -1 ? text.length : close + 3;
  }
  return shown + text.slice(at);
}

/**
 * The one secrets check: the secrets a text shows, read both as the model receives it and as
 * the shopper's renderer shows it.
 */
export function secretsShown(text: string, secrets: readonly string[]): string[] {
  const found = new Set(findSecretEchoes(text, secrets));
  for (const secret of findSecretEchoes(shopperView(text), secrets)) found.add(secret);
  for (const secret of findSecretEchoes(renderedView(text), secrets)) found.add(secret);
  return secrets.filter((secret) => found.has(secret));
}
