/*
 * Prints how many of the tool calls a reasonable model sends each framework accepts:
 * `pnpm --filter @catalogkit/integration-tests bench:inputs`.
 */
import { countToolInputs, type InputCounts } from './tool-inputs.js';

function lines(framework: string, counts: InputCounts): string[] {
  const rows = Object.entries(counts).map(
    ([tool, { accepted, refused, examples }]) =>
      `  ${tool}: ${accepted} accepted, ${refused} refused${examples.length ? ` (e.g. ${examples[0]})` : ''}`,
  );
  const accepted = Object.values(counts).reduce((sum, entry) => sum + entry.accepted, 0);
  const refused = Object.values(counts).reduce((sum, entry) => sum + entry.refused, 0);
  return [`${framework}: ${accepted} accepted, ${refused} refused`, ...rows];
}

const { inputs, aiSdk, langChain } = await countToolInputs();
process.stdout.write(
  `${[
    `${inputs} tool calls a reasonable model sends (left-out or null optionals, "5", country case and UK, lone strings, enum case, padding):`,
    ...lines('AI SDK 7 generateText', aiSdk),
    ...lines('LangChain 1 tool.invoke', langChain),
  ].join('\n')}\n`,
);
