import type { CatalogService } from '../service/catalog-service.js';
import type { RecordedRequest, RunningStandIn } from '../stand-ins/server.js';
import { throwIfAny } from './error.js';

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

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The forms a secret is searched in: as is, and URL-encoded, both in any letter case. */
function formsOf(secret: string): string[] {
  const lower = secret.toLowerCase();
  const encoded = encodeURIComponent(secret).toLowerCase();
  return encoded === lower ? [lower] : [lower, encoded];
}

function surfaces(seen: SeenByModelAndShopper): { where: string; text: string }[] {
  const requests = Array.isArray(seen.model)
    ? (seen.model as readonly RecordedRequest[])
    : ((seen.model as Pick<RunningStandIn, 'requests'> | undefined)?.requests ?? []);
  return [
    ...requests.map((request, i) => ({
      where: `model request ${i + 1}`,
      text: textOf({ path: request.path, headers: request.headers, body: request.body }),
    })),
    ...(seen.answer === undefined ? [] : [{ where: 'the final answer', text: seen.answer }]),
    ...(seen.ui === undefined
      ? []
      : [{ where: 'what the browser received', text: textOf(seen.ui) }]),
  ];
}

/** Where each secret shows, as problems that never print the secret itself. */
export function secretProblems(secrets: readonly string[], seen: SeenByModelAndShopper): string[] {
  const searched = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const problems: string[] = [];
  for (const { where, text } of surfaces(seen)) {
    const lower = text.toLowerCase();
    for (const secret of searched) {
      if (formsOf(secret).some((form) => lower.includes(form))) {
        problems.push(`the secret ${maskSecret(secret)} is in ${where}`);
      }
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
 * what the browser received. Searched in any letter case and URL-encoded. Given a
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
