import type { CatalogService } from '../service/catalog-service.js';
import type { RecordedRequest, RunningStandIn } from '../stand-ins/server.js';
import { secretsShown } from './echoes.js';
import { throwIfAny } from './error.js';
import { streamedText } from './stream-text.js';
import { type WalkedText, walkText } from './walk.js';

/** What the model and the shopper saw, for {@link assertKeyNotShown}. */
export interface SeenByModelAndShopper {
  /** What the model was sent: a stand-in (every request it received) or recorded requests. */
  model?: Pick<RunningStandIn, 'requests'> | readonly RecordedRequest[];
  /** The final answer the shopper reads. */
  answer?: string;
  /** Anything else the browser receives: UI messages, stream parts, a page (any JSON value). */
  ui?: unknown;
}

/** A secret as an error message may show it: its first characters and its length. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters)`;
}

interface Surface {
  where: string;
  text: string;
}

function requestsOf(seen: SeenByModelAndShopper): readonly RecordedRequest[] {
  return Array.isArray(seen.model)
    ? (seen.model as readonly RecordedRequest[])
    : ((seen.model as Pick<RunningStandIn, 'requests'> | undefined)?.requests ?? []);
}

function surfaces(seen: SeenByModelAndShopper): { surfaces: Surface[]; problems: string[] } {
  const problems: string[] = [];
  const read = (where: string, value: unknown): Surface => {
    const walked = walkText(value, where);
    problems.push(...walked.problems);
    return { where, text: walked.strings.join('\n') };
  };
  const browser = 'what the browser received';
  const streamed = (where: string, ui: unknown): Surface => {
    const read = streamedText(ui);
    problems.push(...read.problems);
    return { where, text: read.text };
  };
  const found = [
    ...requestsOf(seen).map((request, i) =>
      read(`model request ${i + 1}`, [request.path, request.headers, request.body]),
    ),
    ...(seen.answer === undefined ? [] : [{ where: 'the final answer', text: seen.answer }]),
    ...(seen.ui === undefined ? [] : [read(browser, seen.ui), streamed(browser, seen.ui)]),
  ];
  return { surfaces: found, problems };
}

/** The text of what the browser received, errors' stacks left out (for its links). */
export function uiText(ui: unknown): WalkedText {
  return walkText(ui, 'what the browser received', false);
}

/**
 * Where each secret shows, as problems that never print the secret itself: each surface (and
 * all of them joined, for a secret cut in pieces) read by the one check, {@link secretsShown}:
 * as the model receives it and as the shopper's renderer shows it.
 */
export function secretProblems(secrets: readonly string[], seen: SeenByModelAndShopper): string[] {
  const searched = [...new Set(secrets)];
  const { surfaces: all, problems: unread } = surfaces(seen);
  const problems = new Set(unread);
  const found = new Set<string>();
  for (const { where, text } of all) {
    for (const secret of secretsShown(text, searched)) {
      found.add(secret);
      problems.add(`the secret ${maskSecret(secret)} is in ${where}`);
    }
  }
  // A secret cut in pieces, one in the answer and one in the page, say.
  const joined = all.map((surface) => surface.text).join('');
  for (const secret of secretsShown(joined, searched)) {
    if (found.has(secret)) continue;
    problems.add(
      `the secret ${maskSecret(secret)} is split across what the model and the shopper saw`,
    );
  }
  return [...problems];
}

function secretsOf(secrets: string | readonly string[] | CatalogService): readonly string[] {
  if (typeof secrets === 'string') return [secrets];
  return 'secrets' in secrets ? secrets.secrets() : secrets;
}

/**
 * Throws unless the key (and any other secret given) is in nothing the model or the
 * shopper saw: no request to the model (bodies and headers), not the final answer, not
 * what the browser received (walked: Maps, Sets, errors, class instances, bytes; a UI
 * stream's text deltas joined). Each is read two ways, each in the forms core's redactor
 * finds (as written, any letter case, percent-encoded, JSON-escaped, HTML character
 * references, base64 of the secret alone): as the model receives it, and as the shopper's
 * renderer (`@catalogkit/links`) shows it (Markdown rendered, references decoded, raw HTML
 * shown as text, invisible characters gone); also split across those places. Given a
 * {@link CatalogService}, its secrets are used: the key, payment credentials, minted tokens.
 *
 * @example
 * assertKeyNotShown(service, { model: standIn, answer: text });
 */
export function assertKeyNotShown(
  secrets: string | readonly string[] | CatalogService,
  seen: SeenByModelAndShopper,
): void {
  throwIfAny('assertKeyNotShown', secretProblems(secretsOf(secrets), seen));
}
