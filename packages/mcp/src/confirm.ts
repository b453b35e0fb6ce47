import { type CatalogTool, ConfigurationError, type UpdateCollectionInput } from '@catalogkit/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * How the server makes sure the user wants a change before a tool that changes data runs:
 * - `'elicit'` (default): where the host supports form elicitation, the server asks the
 *   user itself (`elicitation/create`) and runs the tool only once they accept; other hosts
 *   get the tool's annotations (`readOnlyHint: false`) to decide for themselves.
 * - `'annotations-only'`: never asks; the annotations are all hosts get.
 */
export type ConfirmChanges = 'elicit' | 'annotations-only';

const CONFIRM_CHANGES: readonly ConfirmChanges[] = ['elicit', 'annotations-only'];

/** A person may take a while to answer; the SDK's own default (60 s) is for machines. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

type ErasedTool = CatalogTool<unknown, unknown, string>;

/** Checks the `confirmChanges` option (at run time too, for callers without the types). */
export function confirmChangesOf(value: unknown): ConfirmChanges {
  if (value === undefined) return 'elicit';
  const known = CONFIRM_CHANGES.find((mode) => mode === value);
  if (known) return known;
  throw new ConfigurationError(
    `Invalid MCP server options: confirmChanges must be ${CONFIRM_CHANGES.map((mode) => `'${mode}'`).join(' or ')}, got ${JSON.stringify(value)}`,
  );
}

/** Whether the connected host said it can show the user a form (`elicitation.form`). */
export function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

function quoted(text: string): string {
  return `“${text}”`;
}

function clauseText(selectors: Record<string, readonly string[]>): string {
  const parts = Object.entries(selectors)
    .filter(([key, ids]) => key.endsWith('_ids') && ids.length > 0)
    .map(
      ([key, ids]) =>
        `${key.replace(/_ids$/, '').replace('website', 'retailer')} ${ids.join(', ')}`,
    );
  return parts.length > 0 ? parts.join('; ') : 'nothing';
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The changes of an update, in the words the user reads before accepting them. */
export function describeUpdate(input: UpdateCollectionInput): string {
  const changes: string[] = [];
  if (input.name !== null) changes.push(`rename it to ${quoted(input.name)}`);
  if (input.description !== null) {
    changes.push(`set its description to ${quoted(input.description)}`);
  }
  for (const clause of input.add_clauses ?? [])
    changes.push(`add a clause (${clauseText(clause)})`);
  for (const { clause_id, ...selectors } of input.replace_clauses ?? []) {
    changes.push(`replace clause ${clause_id} (${clauseText(selectors)})`);
  }
  const removed = input.remove_clause_ids ?? [];
  if (removed.length > 0) {
    changes.push(`remove ${counted(removed.length, 'clause', 'clauses')} (${removed.join(', ')})`);
  }
  return `Change your collection ${input.collection_id}: ${changes.join('; ')}.`;
}

/** What the user is asked, or `undefined` for input the tool will refuse anyway. */
function questionFor(catalogTool: ErasedTool, input: unknown): string | undefined {
  const parsed = catalogTool.inputSchema.safeParse(input);
  if (!parsed.success) return undefined;
  if (catalogTool.originalName === 'update_collection') {
    // The built-in's own schema parsed it: its output is an UpdateCollectionInput.
    return describeUpdate(parsed.data as UpdateCollectionInput);
  }
  return `Run ${catalogTool.name}, which changes your data, with ${JSON.stringify(parsed.data)}?`;
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function answerText(toolName: string, action: 'decline' | 'cancel'): string {
  const how =
    action === 'decline'
      ? 'The user declined this change'
      : 'The user closed the confirmation without answering';
  return `${how}, so ${toolName} did not run and nothing was changed. Do not call it again for this change unless the user asks for it.`;
}

/**
 * Asks the user through the host (form elicitation) whether `catalogTool` may run with
 * `input`. Resolves to `undefined` when it may (accepted, or input the tool refuses
 * itself), else to the tool error the model reads: declined, dismissed, or no answer.
 */
export async function confirmWithUser(
  server: Server,
  catalogTool: ErasedTool,
  input: unknown,
  signal: AbortSignal,
): Promise<CallToolResult | undefined> {
  const message = questionFor(catalogTool, input);
  if (message === undefined) return undefined;
  try {
    const answer = await server.elicitInput(
      { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
      { signal, timeout: CONFIRM_TIMEOUT_MS },
    );
    return answer.action === 'accept'
      ? undefined
      : refusal(answerText(catalogTool.name, answer.action));
  } catch (error) {
    // Cancelled with the call: the caller's signal ends it like any other running call.
    if (signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return refusal(
      `Could not get the user's confirmation (${reason}), so ${catalogTool.name} did not run and nothing was changed. Ask the user in the chat before trying again.`,
    );
  }
}
