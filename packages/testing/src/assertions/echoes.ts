/*
 * The kit's one secrets check, `secretsShown`. It reads a text two ways and looks for the
 * secrets in both with core's matcher (`secretEchoesIn` of `@catalogkit/core/errors`), so
 * the kit finds a secret in exactly the forms catalogkit's own redactor removes, no more and
 * no fewer:
 * - as the model receives it: the text as written;
 * - as the shopper's renderer shows it: the links package's parse and render
 *   (`renderAnswerHtml`: Markdown rendered, character references decoded, raw HTML shown as
 *   text, so no text is hidden), that HTML's text content, characters that render as nothing
 *   removed.
 * Disguises only the holder of the key makes on purpose (reversed, hex, spaced, cut in runs)
 * are out of scope: the key must not reach the model at all, and that is checked where it
 * would (docs/SECURITY.md, the testing kit).
 */
import { secretEchoesIn } from '@catalogkit/core/errors';
import { renderAnswerHtml } from '@catalogkit/links';

/** Secrets shorter than this are not searched for (they would match by chance). */
export const MIN_SECRET_LENGTH = 8;

/** The character references the renderer writes (it escapes all text with these five). */
const RENDERED_REFERENCES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** Every character Unicode says a renderer may show as nothing (zero-width, tag characters). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The text the shopper reads on the page: the answer rendered by the links package (the
 * shopper's renderer), then that HTML's text content. The renderer escapes every `<` and `>`
 * of text and attributes, so each `<` of its output opens one of its own tags and each tag
 * ends at the first `>`: removing them and decoding its five references is an exact
 * tokenizer of that output. One linear pass each (an answer too long to parse is rendered as
 * escaped text).
 */
export function shownText(text: string): string {
  return renderAnswerHtml(text, [])
    .replace(/<[^<>]*>/g, '')
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (reference) => RENDERED_REFERENCES[reference] ?? '')
    .replace(IGNORABLE, '');
}

/**
 * The one secrets check: the secrets `text` shows, read as the model receives it and as the
 * shopper's renderer shows it, each in the forms core's redactor finds (as written, any
 * letter case, percent-encoded, JSON-escaped, HTML-escaped, base64 of the secret alone).
 * Each view is one pass of core's matcher, which tells which secrets it found (red team R4:
 * one pass per secret per view once any was): linear in the text, times the secrets' forms.
 */
export function secretsShown(text: string, secrets: readonly string[]): string[] {
  const searched = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (searched.length === 0) return [];
  const found = new Set([text, shownText(text)].flatMap((view) => secretEchoesIn(view, searched)));
  return searched.filter((secret) => found.has(secret));
}
