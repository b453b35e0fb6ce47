import type { ModelView, RunningStandIn } from '../stand-ins/index.js';
import { throwIfAny } from './error.js';

/**
 * Words that ask for a repeat ("try again", "retry it", "repeat the call", "send it once
 * more", "re-run", "resend", "call it again").
 */
const INVITES =
  /\b(try\b[^.!?]{0,20}?\b(again|more)|retry|retries|retrying|repeat\w*|re-?run\w*|re-?send\w*|re-?submit\w*|re-?issue\w*|once more|(call|send|run|submit|make|issue)\s+(it|this|that|the \w+( \w+)?)\s+again)\b/gi;
/** A negation right before the repeat it governs ("do not retry", "never call it again"). */
const FORBIDS =
  /\b(do not|don't|does not|doesn't|must not|mustn't|should not|shouldn't|never|not|no need to|cannot|can't|without)(\s+\S+){0,4}\s*$/i;
/** Refused before sending (bad arguments): nothing reached the service, so a retry is right. */
const REFUSED_BEFORE_SENDING = /^(Error: )?Invalid arguments|refused the input/i;
/** Instructions about failures: only those count (retrying a search with other words is fine). */
const ABOUT_FAILURE =
  /\b(fail\w*|error\w*|unknown|times? out|timed out|does not work|doesn't work)\b/i;

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/);
}

/** True when the sentence asks for a repeat that no negation right before it forbids. */
function invites(sentence: string): boolean {
  for (const match of sentence.matchAll(INVITES)) {
    if (!FORBIDS.test(sentence.slice(Math.max(0, match.index - 60), match.index))) return true;
  }
  return false;
}

/** Options of {@link assertNotToldToRetry}. */
export interface NotToldToRetryOptions {
  /** Tools that change data, whose results must never invite a repeat (default `['update_collection']`). */
  changeTools?: readonly string[];
}

/** Where the model was told to repeat a change, or to retry failures. */
export function retryProblems(
  views: readonly ModelView[],
  options: NotToldToRetryOptions = {},
): string[] {
  const changeTools = new Set(options.changeTools ?? ['update_collection']);
  const problems = new Set<string>();
  for (const view of views) {
    for (const result of view.results) {
      if (result.name === undefined || !changeTools.has(result.name)) continue;
      if (REFUSED_BEFORE_SENDING.test(result.text)) continue;
      const sentence = sentences(result.text).find(invites);
      if (sentence)
        problems.add(
          `the ${result.name} result the model read invites a repeat: "${sentence.trim()}"`,
        );
    }
    const instruction = sentences(view.instructions).find(
      (s) => invites(s) && ABOUT_FAILURE.test(s),
    );
    if (instruction)
      problems.add(`the instructions tell the model to retry failures: "${instruction.trim()}"`);
  }
  return [...problems];
}

/**
 * Throws when the model was told to repeat a change: a result of a tool that changes data
 * (`update_collection`) inviting a retry (unless its arguments were refused before anything
 * was sent), or instructions telling the model to retry failed calls. After a change whose
 * outcome is unknown, a repeat can apply it twice.
 */
export function assertNotToldToRetry(
  model: Pick<RunningStandIn, 'views'> | readonly ModelView[],
  options?: NotToldToRetryOptions,
): void {
  const views = Array.isArray(model)
    ? (model as readonly ModelView[])
    : (model as Pick<RunningStandIn, 'views'>).views;
  throwIfAny('assertNotToldToRetry', retryProblems(views, options));
}
