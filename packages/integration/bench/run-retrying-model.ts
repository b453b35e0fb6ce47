/*
 * Prints what a model that always retries does to collection updates under faults:
 * `pnpm --filter @catalogkit/integration-tests bench:retry [updates]` (default 300).
 */
import { runRetryingModel } from './retrying-model.js';

const updates = Number(process.argv[2] ?? 300);
const started = performance.now();
const report = await runRetryingModel(updates);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const lines = [
  `Faulted collection updates through generateText (AI SDK 7), model repeats every call twice: ${report.updates} updates in ${seconds} s`,
  ...Object.entries(report.faults).map(
    ([fault, count]) => `  fault on the first attempt: ${fault}: ${count}`,
  ),
  `tool calls by the model:                ${report.toolCalls}`,
  `update requests that reached the service: ${report.requestsSent}`,
  `repeats answered without sending:       ${report.repeatsNotSent}`,
  `first answers saying "outcome is unknown": ${report.toldOutcomeUnknown}`,
  `first answers inviting a retry:         ${report.toldToRetry}`,
  `updates held once by the service:       ${report.appliedOnce}`,
  `updates applied twice:                  ${report.appliedTwice}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
