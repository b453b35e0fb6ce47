import { changeAppliedTwiceProblems, unapprovedChangeProblems } from '../assertions/changes.js';
import { requestProblems } from '../assertions/counts.js';
import { type BuyLinkAssertionOptions, buyLinkProblems } from '../assertions/links.js';
import { retryProblems } from '../assertions/retry.js';
import { maskSecret, secretProblems, uiText } from '../assertions/secrets.js';
import { toolCallsOf, trajectoryProblems } from '../assertions/trajectory.js';
import type { ScenarioRun } from './types.js';

/** What every scenario checks, with its own limits. */
export interface CommonExpectations {
  /** Fewest verified buy links the answer must give. */
  atLeastLinks: number;
  /** Most requests the catalog service may receive for the answer. */
  maxServiceRequests: number;
  /** Most requests the model may receive for the answer. */
  maxModelRequests: number;
}

/** Every known secret in a text replaced by its mask (a failure message may quote one). */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret.length >= 8) masked = masked.split(secret).join(maskSecret(secret));
  }
  return masked;
}

/** What a run's links may be besides buy links: the agent's own, the URLs the catalog gave. */
function linkOptions(run: ScenarioRun): BuyLinkAssertionOptions {
  return { allowedLinks: run.allowedLinks, catalogUrls: run.service.catalogUrls() };
}

/** Links in what the browser received: the browser shows them too, so they must be buy links. */
function uiLinkProblems(run: ScenarioRun): string[] {
  if (run.answer?.ui === undefined) return [];
  const text = uiText(run.answer.ui).strings.join('\n');
  return buyLinkProblems(text, run.service.buyLinkSources(), linkOptions(run)).map(
    (problem) => `in what the browser received: ${problem}`,
  );
}

function standInProblems(run: ScenarioRun): string[] {
  return [
    ...run.model.schemaProblems.map(
      (problem) => `the model provider would refuse a tool schema: ${problem}`,
    ),
    ...run.model.scriptErrors.map((error) => `the scenario's model script failed: ${error}`),
  ];
}

/**
 * The checks every scenario makes: the agent answered; the key and every other secret in
 * nothing the model or the shopper saw; every link a verified buy link; no change applied
 * twice or without approval; the model never told to repeat a change; no search repeated
 * with the same input and no tool run after a denial; requests bounded.
 */
export function commonProblems(run: ScenarioRun, limits: CommonExpectations): string[] {
  const secrets = run.service.secrets();
  const text = run.answer?.text;
  return [
    ...(run.failure === undefined
      ? []
      : [`the agent gave no answer: ${maskSecrets(run.failure, secrets)}`]),
    ...standInProblems(run),
    ...(run.model.requests.length === 0
      ? ['the model was never asked: the agent must use the model the kit gives it']
      : []),
    ...secretProblems(secrets, { model: run.model, answer: text, ui: run.answer?.ui }),
    ...(text === undefined
      ? []
      : buyLinkProblems(text, run.service.buyLinkSources(), {
          ...linkOptions(run),
          atLeast: limits.atLeastLinks,
        })),
    ...uiLinkProblems(run),
    ...changeAppliedTwiceProblems(run.service),
    ...unapprovedChangeProblems(run.service, run.approvals),
    ...retryProblems(run.model.views),
    ...trajectoryProblems(toolCallsOf(run.service.exchanges), { approvals: run.approvals }),
    ...requestProblems({
      service: run.service,
      maxServiceRequests: limits.maxServiceRequests,
      model: run.model,
      maxModelRequests: limits.maxModelRequests,
    }),
  ];
}
