import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  type InputRequiredResult,
  inputRequired,
  type McpHttpHandler,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  type AskUser,
  answerText,
  canElicit,
  cannotConfirm,
  confirmWithUser,
  questionAbout,
  refusal,
} from './confirm.js';
import { callTool, type ErasedTool, type PreparedTools } from './server.js';
import { readStorefront } from './storefront.js';

/** The protocol revision this module serves: stateless, one request per exchange. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The key of the confirmation in an `input_required` round trip. */
const CONFIRM_KEY = 'confirm';

/**
 * What a client answers to the confirmation (untrusted input): an accept counts only with
 * its form content, as the SDK's `acceptedContent` reads it.
 */
const ANSWER = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});

/** What the handler's context offers the confirmation: the client's answers, if a retry. */
interface RoundTrip {
  ctx: ServerContext;
  canElicit: boolean;
}

/**
 * The client's answer to this question, read as an own property only: an entry keyed
 * `__proto__` that the SDK copied into the prototype is not an answer.
 */
function ownAnswer(responses: Record<string, unknown> | undefined): unknown {
  return responses !== undefined && Object.hasOwn(responses, CONFIRM_KEY)
    ? responses[CONFIRM_KEY]
    : undefined;
}

/**
 * The 2026-07-28 confirmation of a change: the server cannot call the client back, so it
 * answers `input_required` with the question and a `requestState` sealing which question it
 * is (the tool and its parsed input); the client retries the same call with the user's
 * answer and that state. An answer without the state of this very question is no answer:
 * the user is asked again. `undefined` lets the tool run (accepted, or input the tool
 * refuses itself).
 */
async function confirmation(
  tools: PreparedTools,
  catalogTool: ErasedTool,
  input: unknown,
  round: RoundTrip,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  if (tools.confirmChanges !== 'elicit') return undefined;
  const parsed = catalogTool.inputSchema.safeParse(input);
  if (!parsed.success) return undefined;
  if (!round.canElicit) return cannotConfirm(catalogTool, input);
  const { mcpReq } = round.ctx;
  const answer = ANSWER.safeParse(ownAnswer(mcpReq.inputResponses));
  const answered =
    answer.success &&
    (await tools.seal.matches(mcpReq.requestState(), round.ctx, catalogTool.name, parsed.data));
  if (!answered) {
    return inputRequired({
      inputRequests: {
        [CONFIRM_KEY]: inputRequired.elicit({
          mode: 'form',
          message: questionAbout(catalogTool, parsed.data),
          requestedSchema: { type: 'object', properties: {} },
        }),
      },
      requestState: await tools.seal.mint(catalogTool.name, parsed.data),
    });
  }
  if (answer.data.action === 'accept') {
    return answer.data.content !== undefined
      ? undefined
      : refusal(answerText(catalogTool.name, 'cancel'));
  }
  return refusal(answerText(catalogTool.name, answer.data.action));
}

/** The elicitation part of declared client capabilities; anything else reads as none. */
const ELICITATION_CAPABILITIES = z.object({
  elicitation: z.object({ form: z.object({}).optional(), url: z.object({}).optional() }).optional(),
});

/**
 * Whether this very call declares form elicitation, in its own 2026-07-28 `_meta`
 * envelope: over HTTP and stdio alike (a stdio server holds no capabilities from an
 * `initialize` on this revision), and never from another request.
 */
function envelopeCanElicit(ctx: ServerContext): boolean {
  const envelope: Record<string, unknown> = ctx.mcpReq.envelope ?? {};
  const declared = Object.hasOwn(envelope, CLIENT_CAPABILITIES_META_KEY)
    ? ELICITATION_CAPABILITIES.safeParse(envelope[CLIENT_CAPABILITIES_META_KEY])
    : undefined;
  return declared?.success === true && canElicit(declared.data);
}

/**
 * The listing in this SDK's types. It is JSON already (built from JSON Schema); the two SDKs
 * only type a schema's properties differently (`object` against JSON values).
 */
export function modernListing(tools: PreparedTools): Tool[] {
  return JSON.parse(JSON.stringify(tools.listing)) as Tool[];
}

/**
 * A server of `@modelcontextprotocol/server` 2.x for the prepared tools, for one era: on
 * 2026-07-28 a change is confirmed through `input_required`, on 2025-11-25 (a stdio
 * connection that opened with `initialize`) through `elicitation/create`, as the 1.x server
 * does. Where it cannot ask, the change is refused.
 */
export function catalogServerFor(
  tools: PreparedTools,
  listing: readonly Tool[],
  era: 'legacy' | 'modern',
): Server {
  const { storefront } = tools;
  const server = new Server(tools.serverInfo, {
    capabilities: storefront ? { tools: {}, resources: {} } : { tools: {} },
  });
  server.setRequestHandler('tools/list', () => ({ tools: [...listing] }));
  if (storefront) {
    server.setRequestHandler('resources/list', () => ({ resources: [storefront.resource] }));
    server.setRequestHandler('resources/read', (request) => {
      const read = readStorefront(storefront, request.params.uri);
      if (!read) throw new ResourceNotFoundError(request.params.uri);
      return read;
    });
  }
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const catalogTool = tools.byName.get(request.params.name);
    if (!catalogTool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool ${request.params.name} not found`,
      );
    }
    const input = request.params.arguments ?? {};
    if (era === 'legacy') {
      const canAsk = canElicit(server.getClientCapabilities());
      const ask: AskUser = (params, options) => ctx.mcpReq.elicitInput(params, options);
      const confirm =
        tools.confirmChanges !== 'elicit'
          ? undefined
          : canAsk
            ? (tool: ErasedTool, value: unknown) =>
                confirmWithUser(ask, tool, value, ctx.mcpReq.signal)
            : (tool: ErasedTool, value: unknown) => Promise.resolve(cannotConfirm(tool, value));
      return callTool(catalogTool, input, {
        signal: ctx.mcpReq.signal,
        redact: tools.redact,
        confirm,
      });
    }
    const gate = catalogTool.needsApproval
      ? await confirmation(tools, catalogTool, input, { ctx, canElicit: envelopeCanElicit(ctx) })
      : undefined;
    if (gate) return gate;
    return callTool(catalogTool, input, {
      signal: ctx.mcpReq.signal,
      redact: tools.redact,
      confirm: undefined,
    });
  });
  return server;
}

/**
 * The 2026-07-28 leg of the HTTP handler: a fresh server per request, 2025-era requests
 * refused (the caller routes those to its own stateless leg first).
 */
export function modernHandlerOf(
  tools: PreparedTools,
  options: { sse: boolean; maxBodyBytes: number },
): McpHttpHandler {
  const listing = modernListing(tools);
  return createMcpHandler(() => catalogServerFor(tools, listing, 'modern'), {
    legacy: 'reject',
    responseMode: options.sse ? 'sse' : 'json',
    maxRequestBodySize: options.maxBodyBytes,
  });
}
