import {
  type CatalogTool,
  type CatalogToolResult,
  ConfigurationError,
  type UpdateCollectionInput,
} from '@catalogkit/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * How the server makes sure the user wants a change before a tool that changes data runs:
 * - `'elicit'` (default): the server asks the user itself through the host
 *   (`elicitation/create`) and runs the tool only once they accept. Where it cannot ask (the
 *   host does not support form elicitation, or the stateless HTTP handler, which has no
 *   session to ask over), the tool is refused, with a message saying how to enable it.
 * - `'annotations-only'`: the operator accepts unconfirmed changes. The server never asks;
 *   the tool's annotations (`destructiveHint: true`) are all hosts get to decide from.
 */
export type ConfirmChanges = 'elicit' | 'annotations-only';

const CONFIRM_CHANGES: readonly ConfirmChanges[] = ['elicit', 'annotations-only'];

/** A person may take a while to answer; the SDK's own default (60 s) is for machines. */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

type ErasedTool = CatalogTool<unknown, CatalogToolResult, string>;

/** Checks the `confirmChanges` option (at run time too, for callers without the types). */
export function confirmChangesOf(value: unknown): ConfirmChanges {
  if (value === undefined) return 'elicit';
  const known = CONFIRM_CHANGES.find((mode) => mode === value);
  if (known) return known;
  throw new ConfigurationError(
    `Invalid MCP server options: confirmChanges must be ${CONFIRM_CHANGES.map((mode) => `'${mode}'`).join(' or ')}, got ${JSON.stringify(value)}`,
  );
}

/**
 * Sends `elicitation/create` to the host and resolves with the user's answer: the SDK's
 * `elicitInput` of either major version (1.x `Server`, 2.x request context).
 */
export type AskUser = (
  params: {
    mode: 'form';
    message: string;
    requestedSchema: { type: 'object'; properties: Record<string, never> };
  },
  options: { signal: AbortSignal; timeout: number },
) => Promise<{ action: 'accept' | 'decline' | 'cancel' }>;

/** What a client declares about elicitation, in either SDK's types. */
interface ElicitationCapabilities {
  elicitation?: { form?: object; url?: object };
}

/**
 * Whether the client said it can show the user a form: `elicitation.form`, or an empty
 * `elicitation` (form, by the specification). Read per request on 2026-07-28, where the
 * capabilities travel in each request's `_meta`.
 */
export function canElicit(capabilities: ElicitationCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return (
    elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined)
  );
}

/** The most of one model-written text (a name, a description) the question shows. */
const MAX_TEXT = 200;
/** The most ids of one list the question shows; the rest are counted. */
const MAX_IDS = 20;
/** The most of one id the question shows. */
const MAX_ID = 64;
/** The most of a tool of the application's arguments the question shows. */
const MAX_ARGUMENTS = 1_000;

/**
 * Characters that would let model text pass for something else in the question: controls
 * and line breaks (a harmless first line, the real change far below), format characters
 * (bidi overrides such as U+202E reverse what follows; zero-width ones hide), private-use
 * and unassigned code points, lone surrogates, and the quotes this text is shown in.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\\“”"]/gu;
/** The same inside JSON text, which escapes its own quotes and backslashes already. */
const UNSAFE_IN_JSON = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}“”]/gu;

function escapeChar(char: string): string {
  if (char === '\\') return '\\\\';
  const code = char.codePointAt(0) ?? 0;
  return `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/** Model text made visible as it is: unsafe characters escaped, the length capped. */
export function shown(text: string, max: number = MAX_TEXT, unsafe: RegExp = UNSAFE): string {
  // Cut by code points first so the scan stays bounded however long the text is.
  const points = Array.from(text.slice(0, max * 2 + 2));
  const cut = points.length > max || text.length > max * 2 + 2;
  const visible = points.slice(0, max).join('').replace(unsafe, escapeChar);
  return cut ? `${visible}… (${text.length} characters in all)` : visible;
}

function quoted(text: string): string {
  return `“${shown(text)}”`;
}

function idsText(ids: readonly string[]): string {
  const listed = ids.slice(0, MAX_IDS).map((id) => shown(id, MAX_ID));
  const more = ids.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
}

function clauseText(selectors: Record<string, readonly string[]>): string {
  const parts = Object.entries(selectors)
    .filter(([key, ids]) => key.endsWith('_ids') && ids.length > 0)
    .map(
      ([key, ids]) => `${key.replace(/_ids$/, '').replace('website', 'retailer')} ${idsText(ids)}`,
    );
  return parts.length > 0 ? parts.join('; ') : 'nothing';
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What the update takes away or overwrites: shown first, so no other text can bury it. */
function destructiveChanges(input: UpdateCollectionInput): string[] {
  const changes: string[] = [];
  const removed = input.remove_clause_ids ?? [];
  if (removed.length > 0) {
    changes.push(`REMOVE ${counted(removed.length, 'clause', 'clauses')} (${idsText(removed)})`);
  }
  for (const { clause_id, ...selectors } of input.replace_clauses ?? []) {
    changes.push(`REPLACE clause ${shown(clause_id, MAX_ID)} with (${clauseText(selectors)})`);
  }
  return changes;
}

/**
 * The changes of an update, in the words the user reads before accepting them: one change
 * a line, removals and replacements first, every model-written text quoted and escaped.
 */
export function describeUpdate(input: UpdateCollectionInput): string {
  const changes = destructiveChanges(input);
  if (input.name !== null) changes.push(`rename it to ${quoted(input.name)}`);
  if (input.description !== null) {
    changes.push(`set its description to ${quoted(input.description)}`);
  }
  const adding = input.add_clauses ?? [];
  for (const clause of adding) changes.push(`add a clause (${clauseText(clause)})`);
  const note =
    adding.length > 0 ? ['(What the collection already selects is not added again.)'] : [];
  return [
    `Change your collection ${shown(input.collection_id, MAX_ID)} (${counted(changes.length, 'change', 'changes')}):`,
    ...changes.map((change) => `- ${change}`),
    ...note,
  ].join('\n');
}

/** What the user is asked about input the tool's own schema has parsed. */
export function questionAbout(catalogTool: ErasedTool, parsed: unknown): string {
  if (catalogTool.originalName === 'update_collection') {
    // The built-in's own schema parsed it: its output is an UpdateCollectionInput.
    return describeUpdate(parsed as UpdateCollectionInput);
  }
  return `Run ${catalogTool.name}, which changes your data, with ${shown(JSON.stringify(parsed) ?? 'no arguments', MAX_ARGUMENTS, UNSAFE_IN_JSON)}?`;
}

/** What the user is asked, or `undefined` for input the tool will refuse anyway. */
export function questionFor(catalogTool: ErasedTool, input: unknown): string | undefined {
  const parsed = catalogTool.inputSchema.safeParse(input);
  return parsed.success ? questionAbout(catalogTool, parsed.data) : undefined;
}

/**
 * The refusal of a change the server cannot have confirmed: the host cannot show the user
 * a form (or the transport has no way back to it). `undefined` for input the tool refuses
 * itself, so the model still reads which field is wrong.
 */
export function cannotConfirm(catalogTool: ErasedTool, input: unknown): CallToolResult | undefined {
  if (questionFor(catalogTool, input) === undefined) return undefined;
  return refusal(
    `${catalogTool.name} changes the user's data and needs their confirmation first, but this MCP connection cannot ask for it (the host does not support form elicitation, or it speaks MCP 2025-11-25 to the stateless HTTP endpoint, which has no session to ask over), so it did not run and nothing was changed. To enable it: use a host that supports elicitation (over HTTP, one speaking MCP 2026-07-28), or the server's operator accepts unconfirmed changes with --confirm-changes annotations-only (option confirmChanges: 'annotations-only'), leaving approval to the host. Tell the user; do not retry.`,
  );
}

export function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export function answerText(toolName: string, action: 'decline' | 'cancel'): string {
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
  ask: AskUser,
  catalogTool: ErasedTool,
  input: unknown,
  signal: AbortSignal,
): Promise<CallToolResult | undefined> {
  const message = questionFor(catalogTool, input);
  if (message === undefined) return undefined;
  try {
    const answer = await ask(
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
