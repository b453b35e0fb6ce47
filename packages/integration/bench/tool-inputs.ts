/*
 * The tool calls a reasonable model sends, and how many the real frameworks accept: every
 * combination of optional fields left out or null (Anthropic, Gemini and open models leave
 * them out; OpenAI strict mode sends null), numbers as text ("5"), countries in any case or
 * as UK, a lone string where a list of one is expected, enum values in any case, padding
 * whitespace. Each input goes through the AI SDK's generateText (its own validation runs
 * before the tool) and through LangChain's tool.invoke, against the emulator.
 */
import { createCatalogTools as createAiSdkTools } from '@catalogkit/ai-sdk';
import { RequestValidationError } from '@catalogkit/core';
import { startEmulator } from '@catalogkit/emulator';
import { createCatalogTools as createLangChainTools } from '@catalogkit/langchain';
import { runScriptedModel } from '../test/agent-tools/scripted-model.js';

type Input = Record<string, unknown>;
const OMITTED = Symbol('omitted');
type Choice = unknown | typeof OMITTED;

/** Every combination of the choices of each field (an omitted field is left out). */
function combinations(fields: Record<string, Choice[]>): Input[] {
  let inputs: Input[] = [{}];
  for (const [key, choices] of Object.entries(fields)) {
    inputs = inputs.flatMap((input) =>
      choices.map((choice) => (choice === OMITTED ? { ...input } : { ...input, [key]: choice })),
    );
  }
  return inputs;
}

const notGiven: Choice[] = [OMITTED, null];

/** The family of inputs per tool. */
export function reasonableInputs(): Record<string, Input[]> {
  const clause = { brand_ids: [], website_ids: [], category_ids: [], product_ids: ['prod_1'] };
  const updates = combinations({
    collection_id: ['col_summer', ' col_summer'],
    name: [...notGiven, 'Summer picks'],
    description: [...notGiven, 'For the beach'],
    add_clauses: [
      ...notGiven,
      [clause],
      [{ product_ids: ['prod_1'] }],
      [{ product_ids: 'prod_1', brand_ids: null }],
    ],
    replace_clauses: notGiven,
    remove_clause_ids: [...notGiven, 'cl_missing', ['cl_missing']],
  }).filter((input) =>
    ['name', 'description', 'add_clauses', 'remove_clause_ids'].some((key) => input[key] != null),
  );
  return {
    search_catalog: combinations({
      query: ['running shoes', ' running shoes '],
      limit: [...notGiven, 5, '5', ' 5'],
      cursor: [...notGiven, 'c2'],
      placements: [...notGiven, ['affiliate'], 'affiliate', ['AFFILIATE'], 'Affiliate'],
    }),
    search_websites: combinations({
      query: ['nike', 'zappos.com '],
      limit: [...notGiven, 3, '3'],
      category_ids: [...notGiven, ['shoes'], 'shoes'],
      country: [...notGiven, 'GB', 'gb', 'UK', 'uk', 'De'],
    }),
    update_collection: updates,
  };
}

/** Accepted and refused inputs of one framework, per tool. */
export type InputCounts = Record<string, { accepted: number; refused: number; examples: string[] }>;

function count(counts: InputCounts, tool: string, accepted: boolean, input: Input): void {
  counts[tool] ??= { accepted: 0, refused: 0, examples: [] };
  const entry = counts[tool];
  if (accepted) entry.accepted += 1;
  else {
    entry.refused += 1;
    if (entry.examples.length < 3) entry.examples.push(JSON.stringify(input));
  }
}

/**
 * Each tool's inputs as parallel tool calls of one generateText step. A call the AI SDK
 * refuses is marked invalid (AI_InvalidToolInputError) and answered with a `tool-error`; an
 * accepted one runs (or, for the update, asks for approval).
 */
async function throughAiSdk(
  inputs: Record<string, Input[]>,
  clientOptions: object,
): Promise<InputCounts> {
  const tools = createAiSdkTools({ clientOptions });
  const counts: InputCounts = {};
  for (const [toolName, list] of Object.entries(inputs)) {
    const { result } = await runScriptedModel({
      tools,
      prompt: 'shop',
      next: (_seen, step) => (step === 0 ? list.map((input) => ({ toolName, input })) : []),
      maxSteps: 1,
    });
    const content = result.steps[0]?.content ?? [];
    for (const [index, input] of list.entries()) {
      const id = `call_0_${index}`;
      // A refused call is marked on its tool-call part (with the AI_InvalidToolInputError).
      const refused = content.some(
        (part) =>
          part.type === 'tool-call' &&
          part.toolCallId === id &&
          (part as { invalid?: boolean }).invalid === true,
      );
      count(counts, toolName, !refused, input);
    }
  }
  return counts;
}

/** True for a ToolMessage whose artifact is the refusal of the call's input, before sending. */
function isInputRefusal(message: unknown): boolean {
  const artifact = (message as { artifact?: unknown } | null)?.artifact;
  const error = (artifact as { error?: unknown } | null | undefined)?.error;
  return RequestValidationError.is(error);
}

/**
 * Each input as a LangChain tool call; a refusal comes back as an error ToolMessage whose
 * artifact is a RequestValidationError (the call is never sent).
 */
async function throughLangChain(
  inputs: Record<string, Input[]>,
  clientOptions: object,
): Promise<InputCounts> {
  const tools = createLangChainTools({ clientOptions });
  const counts: InputCounts = {};
  for (const [toolName, list] of Object.entries(inputs)) {
    const tool = tools.find((candidate) => candidate.name === toolName);
    for (const [index, input] of list.entries()) {
      const accepted = await tool
        ?.invoke({ type: 'tool_call', id: `call_${index}`, name: toolName, args: input })
        .then((message) => !isInputRefusal(message));
      count(counts, toolName, accepted === true, input);
    }
  }
  return counts;
}

/** Every `step`-th input of each tool (a smaller sample of the same family). */
export function sample(inputs: Record<string, Input[]>, step: number): Record<string, Input[]> {
  return Object.fromEntries(
    Object.entries(inputs).map(([tool, list]) => [tool, list.filter((_, i) => i % step === 0)]),
  );
}

/** Runs `inputs` (default: the whole family) through both frameworks against a fresh emulator. */
export async function countToolInputs(
  inputs: Record<string, Input[]> = reasonableInputs(),
): Promise<{
  inputs: number;
  aiSdk: InputCounts;
  langChain: InputCounts;
}> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const clientOptions = {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    };
    const total = Object.values(inputs).reduce((sum, list) => sum + list.length, 0);
    const aiSdk = await throughAiSdk(inputs, clientOptions);
    const langChain = await throughLangChain(inputs, clientOptions);
    return { inputs: total, aiSdk, langChain };
  } finally {
    await emulator.close();
  }
}
