import { isJson } from '../json.js';
import { answerMessages } from '../service/answers.js';
import type { CatalogService } from '../service/catalog-service.js';
import type { ServiceExchange } from '../service/proxy.js';
import type { ApprovalRecord } from './changes.js';
import { throwIfAny } from './error.js';

/** One tool call that reached the catalog service (its resends by the client counted once). */
export interface ToolCallRecord {
  toolName: string;
  /** The input as the service received it (`update_collection`: the body and `collection_id`). */
  input: unknown;
  /** When its first request arrived (`performance.now()`), to order it against approvals. */
  at: number;
}

/** Options of {@link assertTrajectory}. */
export interface TrajectoryOptions {
  /** Tools that must run in this order (other calls may come between them). */
  order?: readonly string[];
  /** With `order`: the calls must be exactly these tools, in this order, and no others. */
  exactOrder?: boolean;
  /** Most tool calls per answer. */
  maxCallsPerAnswer?: number;
  /** Answers the run gave (default 1). */
  answers?: number;
  /**
   * The shopper's decisions: no tool may run after a denial (read from decisions that record
   * `at`, as the kit's shopper does).
   */
  approvals?: readonly ApprovalRecord[];
  /**
   * Tools that must not run twice with the same input in one answer (default `search_catalog`
   * and `search_websites`: the answer is already known). `[]` turns the check off.
   */
  searchTools?: readonly string[];
}

const SEARCH_TOOLS = ['search_catalog', 'search_websites'];
/** Longest input quoted in a problem: the report stays one line. */
const MAX_QUOTED = 200;
const WEBSITES_PATH = /\/websites\/search(?:\?|$)/;
const UPDATE_PATH = /\/collections\/([^/?#]+)$/;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The tool an exchange ran and its input, or undefined (a session, a token, a read-back). */
function toolOf(exchange: ServiceExchange): { toolName: string; input: unknown } | undefined {
  const url = new URL(exchange.path, 'http://service.invalid');
  if (exchange.method === 'POST' && url.pathname.endsWith('/mcp')) {
    const [message] = answerMessages(exchange.requestBody);
    if (!isJson(message) || message.method !== 'tools/call' || !isJson(message.params)) return;
    const { name, arguments: input } = message.params;
    return typeof name === 'string' ? { toolName: name, input: input ?? {} } : undefined;
  }
  if (exchange.method === 'GET' && WEBSITES_PATH.test(url.pathname)) {
    return { toolName: 'search_websites', input: Object.fromEntries(url.searchParams) };
  }
  const update = UPDATE_PATH.exec(url.pathname);
  if (exchange.method === 'PATCH' && update?.[1]) {
    const body = parsed(exchange.requestBody);
    const collection_id = decodeURIComponent(update[1]);
    return {
      toolName: 'update_collection',
      input: { ...(isJson(body) ? body : {}), collection_id },
    };
  }
  return undefined;
}

/** An answer the client resends on its own: none came, or a 402, 429 or 5xx. */
function resent(exchange: ServiceExchange): boolean {
  const { status } = exchange;
  return exchange.cut || status === undefined || status === 402 || status === 429 || status >= 500;
}

/**
 * The tool calls that reached the service, in order. A request the client resent after a
 * dropped connection, a payment challenge, a 429 or a 5xx (the same tool and input, nothing
 * between) is the same call.
 */
export function toolCallsOf(exchanges: readonly ServiceExchange[]): ToolCallRecord[] {
  const calls: ToolCallRecord[] = [];
  let last: { key: string; exchange: ServiceExchange } | undefined;
  for (const exchange of exchanges) {
    const tool = toolOf(exchange);
    if (!tool) continue;
    const key = `${tool.toolName} ${JSON.stringify(tool.input)}`;
    if (!(last && last.key === key && resent(last.exchange))) {
      calls.push({ ...tool, at: exchange.at });
    }
    last = { key, exchange };
  }
  return calls;
}

/** Whether `order` appears in `names`, in order (others between when not exact). */
function inOrder(names: readonly string[], order: readonly string[], exact: boolean): boolean {
  if (exact) return names.length === order.length && names.every((name, i) => name === order[i]);
  let next = 0;
  for (const name of names) if (name === order[next]) next++;
  return next === order.length;
}

function orderProblems(calls: readonly ToolCallRecord[], options: TrajectoryOptions): string[] {
  if (!options.order) return [];
  const names = calls.map((call) => call.toolName);
  if (inOrder(names, options.order, options.exactOrder ?? false)) return [];
  const expected = options.exactOrder ? 'exactly' : 'in this order';
  return [
    `the tools ran as [${names.join(', ')}], expected ${expected} [${options.order.join(', ')}]`,
  ];
}

function repeatProblems(calls: readonly ToolCallRecord[], options: TrajectoryOptions): string[] {
  const searchTools = new Set(options.searchTools ?? SEARCH_TOOLS);
  const seen = new Map<string, number>();
  for (const call of calls) {
    if (!searchTools.has(call.toolName)) continue;
    const key = `${call.toolName} ${JSON.stringify(call.input)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const answers = Math.max(1, options.answers ?? 1);
  return [...seen]
    .filter(([, count]) => count > answers)
    .map(([key, count]) => {
      const toolName = key.slice(0, key.indexOf(' '));
      const input = key.slice(toolName.length + 1);
      const shown = input.length > MAX_QUOTED ? `${input.slice(0, MAX_QUOTED)}…` : input;
      return `${toolName} ran ${count} times with the same input ${shown}: reuse the result of the first search`;
    });
}

function afterDenialProblems(calls: readonly ToolCallRecord[], options: TrajectoryOptions) {
  const denial = (options.approvals ?? []).find((approval) => !approval.approved);
  if (denial?.at === undefined) return [];
  const after = calls.filter((call) => call.at > (denial.at ?? 0));
  if (after.length === 0) return [];
  return [
    `${after.map((call) => call.toolName).join(', ')} ran after the shopper denied ${denial.toolName}: after a denial, answer without running tools`,
  ];
}

/** What the tool calls of a run break: the order, the calls per answer, a repeat, a denial. */
export function trajectoryProblems(
  calls: readonly ToolCallRecord[],
  options: TrajectoryOptions,
): string[] {
  const answers = Math.max(1, options.answers ?? 1);
  const max = options.maxCallsPerAnswer;
  return [
    ...orderProblems(calls, options),
    ...(max !== undefined && calls.length / answers > max
      ? [`${calls.length} tool calls for ${answers} answer(s) (at most ${max} per answer)`]
      : []),
    ...repeatProblems(calls, options),
    ...afterDenialProblems(calls, options),
  ];
}

/**
 * Throws when the tool calls that reached the service (resends by the client counted once)
 * break the trajectory: not in `order`, more than `maxCallsPerAnswer`, a search repeated with
 * the same input in one answer, or any tool run after the shopper denied a change.
 *
 * @example
 * assertTrajectory(service, {
 *   order: ['search_catalog', 'update_collection'],
 *   maxCallsPerAnswer: 4,
 *   approvals,
 * });
 */
export function assertTrajectory(
  calls: CatalogService | readonly ToolCallRecord[],
  options: TrajectoryOptions = {},
): void {
  const list = Array.isArray(calls)
    ? (calls as readonly ToolCallRecord[])
    : toolCallsOf((calls as CatalogService).exchanges);
  throwIfAny('assertTrajectory', trajectoryProblems(list, options));
}
