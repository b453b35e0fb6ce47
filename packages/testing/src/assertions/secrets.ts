import type { CatalogService } from '../service/catalog-service.js';
import type { RecordedRequest, RunningStandIn } from '../stand-ins/server.js';
import { throwIfAny } from './error.js';
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

/** Secrets shorter than this are not searched for (they would match by chance). */
const MIN_SECRET_LENGTH = 8;

/** A secret as an error message may show it: its first characters and its length. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters)`;
}

/** Copies this long of any part of a secret count as the secret (a key split in two, say). */
const MIN_RUN = 12;

/** Separators a copy may put between a secret's characters (spaces, dashes, dots, quotes). */
const SEPARATORS = /[\s\-_.,:;|/\\'"`+*~()[\]{}<>]+/g;

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

/** The forms searched in lower-cased text: as is, URL-encoded, hex, reversed. */
function lowerForms(secret: string): string[] {
  const lower = secret.toLowerCase();
  return [
    lower,
    encodeURIComponent(secret).toLowerCase(),
    Buffer.from(secret, 'utf8').toString('hex'),
    [...lower].reverse().join(''),
  ];
}

/** Every run of {@link MIN_RUN} characters of the secret, separators removed. */
function runsOf(secret: string): string[] {
  const bare = compact(secret);
  if (bare.length <= MIN_RUN) return [bare];
  return Array.from({ length: bare.length - MIN_RUN + 1 }, (_, i) => bare.slice(i, i + MIN_RUN));
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
  const found = [
    ...requestsOf(seen).map((request, i) =>
      read(`model request ${i + 1}`, [request.path, request.headers, request.body]),
    ),
    ...(seen.answer === undefined ? [] : [{ where: 'the final answer', text: seen.answer }]),
    ...(seen.ui === undefined ? [] : [read('what the browser received', seen.ui)]),
  ];
  return { surfaces: found, problems };
}

function shows(secret: string, text: string, lower: string, bare: string): boolean {
  return (
    lowerForms(secret).some((form) => lower.includes(form)) ||
    base64Forms(secret).some((form) => text.includes(form)) ||
    runsOf(secret).some((run) => bare.includes(run))
  );
}

/** The text of what the browser received, errors' stacks left out (for its links). */
export function uiText(ui: unknown): WalkedText {
  return walkText(ui, 'what the browser received', false);
}

/**
 * Where each secret shows, as problems that never print the secret itself: as written (any
 * case), URL-encoded, base64 or base64url, hex, reversed, or any run of 12 characters of it
 * with spaces and separators removed; in one surface, or split across them.
 */
export function secretProblems(secrets: readonly string[], seen: SeenByModelAndShopper): string[] {
  const searched = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const { surfaces: all, problems: unread } = surfaces(seen);
  const problems: string[] = [...new Set(unread)];
  const found = new Set<string>();
  for (const { where, text } of all) {
    const lower = text.toLowerCase();
    const bare = compact(text);
    for (const secret of searched) {
      if (shows(secret, text, lower, bare)) {
        found.add(secret);
        problems.push(`the secret ${maskSecret(secret)} is in ${where}`);
      }
    }
  }
  // A secret cut in pieces, one in the answer and one in the page, say.
  const joined = all.map((surface) => surface.text).join('');
  const [lowerJoined, bareJoined] = [joined.toLowerCase(), compact(joined)];
  for (const secret of searched) {
    if (!found.has(secret) && shows(secret, joined, lowerJoined, bareJoined)) {
      problems.push(
        `the secret ${maskSecret(secret)} is split across what the model and the shopper saw`,
      );
    }
  }
  return problems;
}

function secretsOf(secrets: string | readonly string[] | CatalogService): readonly string[] {
  if (typeof secrets === 'string') return [secrets];
  return 'secrets' in secrets ? secrets.secrets() : secrets;
}

/**
 * Throws unless the key (and any other secret given) is in nothing the model or the
 * shopper saw: no request to the model (bodies and headers), not the final answer, not
 * what the browser received (walked: Maps, Sets, errors, class instances, bytes). Searched in
 * any letter case, URL-encoded, base64, hex, reversed, spaced out, and as any run of 12
 * characters of it, also split across those places. Given a
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
