import type { RunningEmulator } from '@catalogkit/emulator';
import type { CatalogService } from '../service/catalog-service.js';
import type { RunningStandIn } from '../stand-ins/server.js';
import { throwIfAny } from './error.js';

function emulatorOf(target: CatalogService | RunningEmulator): RunningEmulator {
  return 'emulator' in target ? target.emulator : target;
}

/** Conversations that minted more tokens than `max`. */
export function tokenProblems(target: CatalogService | RunningEmulator, max: number): string[] {
  return [...emulatorOf(target).state.conversations.values()]
    .filter((conversation) => conversation.tokens.length > max)
    .map(
      (conversation) =>
        `conversation ${conversation.conversation_id} minted ${conversation.tokens.length} tokens (at most ${max} expected): tokens are minted per turn instead of reused`,
    );
}

/**
 * Throws when a conversation (a shopper's session) minted more conversation tokens than
 * `max` (default 1): read from what the emulator holds. A token lives for up to two hours;
 * a session that mints one per turn spends the mint quota and the service's time.
 */
export function assertTokensMintedPerSession(
  target: CatalogService | RunningEmulator,
  options: { max?: number } = {},
): void {
  throwIfAny('assertTokensMintedPerSession', tokenProblems(target, options.max ?? 1));
}

/** Limits of {@link assertRequestsPerAnswer}. */
export interface RequestsPerAnswerOptions {
  /** Answers the run gave (default 1). */
  answers?: number;
  /** The catalog service the run used, and the most requests per answer it may receive. */
  service?: CatalogService;
  maxServiceRequests?: number;
  /** The model stand-in the run used, and the most model requests per answer. */
  model?: Pick<RunningStandIn, 'requests'>;
  maxModelRequests?: number;
}

/** Requests per answer over the limits. */
export function requestProblems(options: RequestsPerAnswerOptions): string[] {
  const answers = Math.max(1, options.answers ?? 1);
  const problems: string[] = [];
  const over = (what: string, count: number, max: number | undefined) => {
    if (max !== undefined && count / answers > max) {
      problems.push(
        `${count} request${count === 1 ? '' : 's'} to ${what} for ${answers} answer${answers === 1 ? '' : 's'} (at most ${max} per answer)`,
      );
    }
  };
  if (options.service) {
    over('the catalog service', options.service.exchanges.length, options.maxServiceRequests);
  }
  if (options.model) over('the model', options.model.requests.length, options.maxModelRequests);
  return problems;
}

/**
 * Throws when a run used more requests per answer than allowed: to the catalog service
 * (each one counted as it reached the service, retries included) and to the model (each
 * one a bill). A loop that retries a failing call, or re-searches for every link, shows here.
 *
 * @example
 * assertRequestsPerAnswer({ service, maxServiceRequests: 4, model: standIn, maxModelRequests: 4 });
 */
export function assertRequestsPerAnswer(options: RequestsPerAnswerOptions): void {
  throwIfAny('assertRequestsPerAnswer', requestProblems(options));
}
