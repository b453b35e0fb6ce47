import {
  type AnyCatalogToolDefinition,
  CatalogClient,
  type CatalogTool,
  type CatalogToolResult,
  type CatalogToolsOptions,
  createCatalogToolList,
} from '@catalogkit/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
// Bundled into dist by tsup, so hosts see the version that was published.
import packageJson from '../package.json' with { type: 'json' };
import { advertisedInputSchema, annotationsOf, outputSchemaOf, titleOf } from './built-in-tools.js';
import {
  type AskUser,
  type ConfirmChanges,
  canElicit,
  cannotConfirm,
  confirmChangesOf,
  confirmWithUser,
} from './confirm.js';
import { type ConfirmationSeal, confirmationSeal } from './confirm-state.js';
import { toObjectJsonSchema } from './json-schema.js';
import {
  readStorefront,
  type Storefront,
  type StorefrontOptions,
  storefrontOf,
} from './storefront.js';

/**
 * Options of the catalog MCP server: the shared catalog tool options (your own `tools`
 * included), plus its identity.
 *
 * `buyLinks` defaults to `'reference'` here too: the model reads `[[buy:123456789]]`, never a
 * URL, and the full result with the exact links is the call's `structuredContent`, from which
 * the host resolves the answer (`finalizeBuyLinks(answer, [{ toolName: 'search_catalog',
 * output: structuredContent }])`) or renders its own buy buttons. For a host that shows the
 * model's text as written and renders nothing of its own, set `buyLinks: 'inline'`.
 */
export interface CatalogMcpServerOptions extends CatalogToolsOptions<AnyCatalogToolDefinition> {
  /** Name and version the server reports to hosts on `initialize`. */
  serverInfo?: { name: string; version: string };
  /**
   * How the user confirms a tool that changes data (`update_collection`, your tools with
   * `mutates`). Default `'elicit'`: the server asks the user through the host (MCP form
   * elicitation), over stdio or any transport with a session, and runs the tool only once
   * they accept; where it cannot ask (a host without elicitation, the stateless HTTP
   * handler) the tool is refused with a message saying how to enable it.
   * `'annotations-only'`: you accept unconfirmed changes, left to hosts that honour the
   * tool annotations.
   */
  confirmChanges?: ConfirmChanges;
  /**
   * The HMAC key (32 bytes or more) sealing each MCP 2026-07-28 confirmation to the change
   * it asks about. Default: a random key per process, which suffices while one process
   * serves both the question and the retry. Give every instance the same key when several
   * serve one endpoint (a load balancer); an answer sealed under another key is not an
   * answer, and the user is asked again.
   */
  confirmationKey?: string | Uint8Array;
  /**
   * The storefront (MCP Apps): hosts that show MCP Apps render `search_catalog` results as
   * product cards with their buy links. `showCommission: true` shows each offer's commission
   * on the cards; by default shoppers do not see it.
   */
  storefront?: StorefrontOptions;
}

const DEFAULT_SERVER_INFO = { name: 'catalogkit', version: packageJson.version };

/** The tools bound once, their MCP listing computed once: what each server instance serves. */
export interface PreparedTools {
  serverInfo: { name: string; version: string };
  listing: Tool[];
  // Erased to one input and output type: each execute validates its own input.
  byName: ReadonlyMap<string, ErasedTool>;
  /** Whether tools that change data ask the user first where the host can show a form. */
  confirmChanges: ConfirmChanges;
  /** Seals a 2026-07-28 confirmation to its question (one key for the whole process). */
  seal: ConfirmationSeal;
  /** Removes the key the client sends from anything a host receives (any letter case). */
  redact: CatalogClient['redact'];
  /**
   * The SDK server only validates elicitation answers with it, yet builds a new Ajv for
   * every server unless given one: the HTTP handler makes a server per request, so they
   * share this one. It keeps no per-request state.
   */
  validator: AjvJsonSchemaValidator;
  /** The product cards of `search_catalog` (MCP Apps), when that tool is served. */
  storefront: Storefront | undefined;
}

/** A catalog tool with its types erased: each execute validates its own input. */
export type ErasedTool = CatalogTool<unknown, CatalogToolResult, string>;

function toMcpTool(catalogTool: ErasedTool, storefront: Storefront | undefined): Tool {
  const outputSchema = outputSchemaOf(catalogTool.originalName);
  const showsCards = storefront && catalogTool.originalName === STOREFRONT_TOOL;
  return {
    name: catalogTool.name,
    title: titleOf(catalogTool.originalName, catalogTool.name),
    description: catalogTool.description,
    inputSchema: advertisedInputSchema(
      catalogTool.originalName,
      toObjectJsonSchema(catalogTool.inputSchema, 'input'),
    ),
    ...(outputSchema ? { outputSchema: toObjectJsonSchema(outputSchema, 'output') } : {}),
    annotations: annotationsOf(catalogTool.originalName, catalogTool.needsApproval),
    ...(showsCards ? { _meta: storefront.toolMeta } : {}),
  };
}

/** The built-in whose results the storefront shows (renamed or not). */
const STOREFRONT_TOOL = 'search_catalog';

type ToolOptions = Omit<
  CatalogMcpServerOptions,
  'serverInfo' | 'confirmChanges' | 'confirmationKey' | 'storefront'
>;

/**
 * The options with a client the server holds: it cleans the full results hosts receive
 * with the key that client sends. Both `client` and `clientOptions`, or a `clientOptions`
 * that is not an object, go on unchanged for the tools' own validation to refuse.
 */
function withOwnClient(options: ToolOptions): ToolOptions & { client?: CatalogClient } {
  const { clientOptions, ...rest } = options;
  if (options.client) return options;
  if (
    clientOptions !== undefined &&
    (typeof clientOptions !== 'object' || clientOptions === null)
  ) {
    return options;
  }
  return { ...rest, client: new CatalogClient(clientOptions) };
}

function redactorOf(client: CatalogClient | undefined): PreparedTools['redact'] {
  // A stand-in for the client (tests) may lack redact; the real one always has it.
  return typeof client?.redact === 'function' ? (value) => client.redact(value) : (value) => value;
}

/**
 * Binds the catalog tools to a client and computes their listing; throws a
 * `ConfigurationError` naming a bad option. The HTTP handler calls this once and serves
 * every request from the result.
 */
export function prepareTools(options: CatalogMcpServerOptions): PreparedTools {
  const {
    serverInfo = DEFAULT_SERVER_INFO,
    confirmChanges,
    confirmationKey,
    storefront: storefrontOptions,
    ...toolOptions
  } = options;
  const withClient = withOwnClient(toolOptions);
  const tools = createCatalogToolList(withClient);
  const cards = storefrontOf(storefrontOptions, packageJson.version);
  const storefront = tools.some((tool) => tool.originalName === STOREFRONT_TOOL)
    ? cards
    : undefined;
  return {
    serverInfo,
    confirmChanges: confirmChangesOf(confirmChanges),
    seal: confirmationSeal(confirmationKey),
    storefront,
    listing: tools.map((catalogTool) => toMcpTool(catalogTool, storefront)),
    byName: new Map(
      tools.map((catalogTool): [string, ErasedTool] => [catalogTool.name, catalogTool]),
    ),
    redact: redactorOf(withClient.client),
    validator: new AjvJsonSchemaValidator(),
  };
}

// Tool calls started and not yet settled, across every server of this module: the tests
// read it to prove that no call outlives its request. Counting servers is not enough: a
// server can be closed while a call it no longer tracks runs on (two requests of one batch
// sharing an id: the SDK keeps one abort controller per id). Not part of the exports.
let runningToolCalls = 0;

/** MCP's error code for an unknown resource (the 1.x SDK's ErrorCode does not name it). */
const RESOURCE_NOT_FOUND = -32002;

/** How many tool calls have started and not yet settled (a test hook). @internal */
export function runningToolCallCount(): number {
  return runningToolCalls;
}

/** What one tool call needs besides the tool and its input. */
export interface CallContext {
  signal: AbortSignal;
  redact: PreparedTools['redact'];
  /** Asks the user to accept a change, or `undefined` when the server does not ask. */
  confirm:
    | ((catalogTool: ErasedTool, input: unknown) => Promise<CallToolResult | undefined>)
    | undefined;
}

/**
 * Runs one tool call: asks `context.confirm` first for a tool that changes data, then the
 * tool; its result as MCP content and structuredContent (both protocol revisions).
 */
export async function callTool(
  catalogTool: ErasedTool,
  input: unknown,
  context: CallContext,
): Promise<CallToolResult> {
  runningToolCalls += 1;
  try {
    const refused =
      catalogTool.needsApproval && context.confirm
        ? await context.confirm(catalogTool, input)
        : undefined;
    return refused ?? (await settleTool(catalogTool, input, context.signal, context.redact));
  } finally {
    runningToolCalls -= 1;
  }
}

async function settleTool(
  catalogTool: ErasedTool,
  input: unknown,
  signal: AbortSignal,
  redact: PreparedTools['redact'],
): Promise<CallToolResult> {
  try {
    const output = await catalogTool.execute(input, { signal });
    const content: CallToolResult['content'] = [
      { type: 'text', text: catalogTool.toModelOutput(output) },
    ];
    // Every tool's result is the one shape, `{ request, response, tier? }`, a JSON object as
    // MCP's structuredContent must be: the host gets what every other adapter hands on.
    const structuredContent = { ...redact(output) };
    // The SDK serialises the result where a throw is lost and the request never answered
    // (the client waits out its timeout): a result JSON cannot carry (a cycle, a BigInt, a
    // custom tool's value nested past the stack) is an error answer instead. Core refuses
    // such nesting in what the service sends, so this guards custom tools and bugs.
    try {
      JSON.stringify(structuredContent);
    } catch {
      return {
        content: [
          {
            type: 'text',
            text: `${catalogTool.name}: the tool's result could not be serialised as JSON`,
          },
        ],
        isError: true,
      };
    }
    return { content, structuredContent };
  } catch (error) {
    const text = catalogTool.errorToModelOutput(error);
    // Not the model's to handle (bad configuration, cancellation, a bug): a protocol error
    // for the host, its message cleaned of the key like everything else the host receives.
    if (text === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      throw new McpError(ErrorCode.InternalError, redact(message));
    }
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/**
 * The signal a tool call runs under: the SDK's own for that request, and `closed` (the HTTP
 * handler's request scope) when given. The SDK keeps one abort controller per request id, so
 * a call whose id another request of the same batch reused is not aborted when the server
 * closes; `closed` reaches every call of the request whatever its id.
 */
function callSignal(own: AbortSignal, closed: AbortSignal | undefined): AbortSignal {
  if (!closed) return own;
  // Not AbortSignal.any: some edge runtimes lack it. Both signals live no longer than the
  // request, so the listeners go with it.
  const either = new AbortController();
  for (const signal of [own, closed]) {
    if (signal.aborted) either.abort();
    else signal.addEventListener('abort', () => either.abort(), { once: true });
  }
  return either.signal;
}

/**
 * A server for the prepared tools (the HTTP handler makes one per request, and passes the
 * signal that aborts when that request is done with as `closed`).
 */
export function serverFor(tools: PreparedTools, closed?: AbortSignal): McpServer {
  // Tools are declared on the underlying Server (the SDK's way to custom handlers), not in
  // the McpServer options, which would install McpServer's own handlers for registerTool.
  const server = new McpServer(tools.serverInfo, { jsonSchemaValidator: tools.validator });
  server.server.registerCapabilities(
    tools.storefront ? { tools: {}, resources: {} } : { tools: {} },
  );
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.listing }));
  if (tools.storefront) {
    const { resource } = tools.storefront;
    server.server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [resource] }));
    server.server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const read = readStorefront(tools.storefront, request.params.uri);
      if (!read) throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found', request.params);
      return read;
    });
  }
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const catalogTool = tools.byName.get(request.params.name);
    if (!catalogTool) {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    }
    const signal = callSignal(extra.signal, closed);
    return callTool(catalogTool, request.params.arguments ?? {}, {
      signal,
      redact: tools.redact,
      confirm: confirmerFor(server, tools.confirmChanges, signal),
    });
  });
  return server;
}

/**
 * How this call asks the user to accept a change: through the host where it can, refused
 * where it cannot, not at all where the operator accepts unconfirmed changes.
 */
function confirmerFor(
  server: McpServer,
  confirmChanges: ConfirmChanges,
  signal: AbortSignal,
): CallContext['confirm'] {
  if (confirmChanges !== 'elicit') return undefined;
  if (!canElicit(server.server.getClientCapabilities())) {
    return (catalogTool, input) => Promise.resolve(cannotConfirm(catalogTool, input));
  }
  const ask: AskUser = (params, options) => server.server.elicitInput(params, options);
  return (catalogTool, input) => confirmWithUser(ask, catalogTool, input, signal);
}

/**
 * An MCP server (official SDK) offering the catalog tools: each call answers with the
 * compact text the model reads as `content` and the full result as `structuredContent`, in
 * the one shape of every tool, `{ request, response, tier? }` (described by the built-ins'
 * `outputSchema`); failures the model can act on come back as
 * `isError` results with a short text. Connect it to any transport, e.g.
 * `StdioServerTransport`.
 *
 * Tool calls are handled here rather than by `registerTool`, so that invalid arguments get
 * the catalog tools' own texts naming each field, like every other failure.
 *
 * @throws ConfigurationError when an option is invalid.
 */
export function createCatalogMcpServer(options: CatalogMcpServerOptions = {}): McpServer {
  return serverFor(prepareTools(options));
}
