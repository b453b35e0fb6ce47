import { z } from 'zod/v4';
import type { CatalogClient } from '../client.js';
import type { CatalogClientOptions } from '../client-options.js';
import { ConfigurationError, RequestValidationError } from '../errors/index.js';
import { isRecord } from '../is-record.js';
import type { BuyLinkMode } from '../links/references.js';
import { CountryCodeSchema } from '../schemas/index.js';
import { type CatalogStore, isCatalogStore } from '../store/catalog-store.js';
import { validateRequest } from '../validation/request.js';
import {
  type AnyCatalogToolDefinition,
  assertToolName,
  CATALOG_TOOL_NAMES,
  type CatalogToolDefaults,
  type CatalogToolName,
  TOOL_NAME_PATTERN,
} from './definition.js';
import { TOOL_RESULT_LIMIT_MAX } from './limits.js';

/**
 * Options shared by every adapter (`@catalogkit/ai-sdk`, `@catalogkit/langchain`).
 * `Extra` is the type of the tools added with `tools` (inferred; none by default).
 */
export interface CatalogToolsOptions<Extra extends AnyCatalogToolDefinition = never> {
  /** The client the tools call. Give this or `clientOptions`, not both. */
  client?: CatalogClient;
  /** Options for a client the tools create (it falls back to the CATALOG_* environment variables). */
  clientOptions?: CatalogClientOptions;
  /**
   * Where the tools keep what must hold across instances: the memory of sent collection
   * updates, so a model that repeats an update (on the next turn, in another process or
   * serverless invocation) does not apply it twice. Default: the client's `store` (its
   * private in-memory one unless you gave it one). Pass the same Redis store
   * (`@catalogkit/redis`) to every instance; a client the tools create from
   * `clientOptions` gets it too, so it shares the rate-limit pause.
   */
  store?: CatalogStore;
  /**
   * Your own tools (made with `defineCatalogTool`), added after the three built-ins. They get
   * the same treatment: input validation, redaction of the API key in model text, error text
   * for the model, approval when `mutates` is true, the strict-mode check, rename and
   * include/exclude by their names. A name may not repeat a built-in's.
   */
  tools?: readonly Extra[];
  /** Only these tools (default: all, the built-ins and `tools`). */
  include?: readonly (CatalogToolName | (string & {}))[];
  /** Leave these tools out. */
  exclude?: readonly (CatalogToolName | (string & {}))[];
  /** Values used when the model leaves a field null. */
  defaults?: CatalogToolDefaults;
  /**
   * Renames the tools, e.g. `(name) => \`shop_${name}\`` for hosts that need a prefix. The
   * result must match `^[a-zA-Z0-9_-]{1,64}$` and be unique.
   */
  rename?(name: CatalogToolName | (string & {})): string;
  /**
   * Check every input schema against OpenAI strict mode (default `true`): the built-ins
   * always pass; a tool from `tools` that does not throws a ConfigurationError listing what
   * to change. Set `false` for tools meant for providers without strict mode.
   */
  strict?: boolean;
  /**
   * How the model reads buy links. `inline` (default, works everywhere): the links themselves,
   * byte for byte; check the answer with `finalizeBuyLinks` (or `verifyBuyLinks`), which
   * repairs corrupted copies. `reference`: a short reference per offer (`[[buy:123456789]]`)
   * that the model writes where the link goes and the application resolves before showing the
   * answer (`finalizeBuyLinks` or the adapters' helpers): about a third of the tokens, and a
   * miscopied reference is reported instead of becoming a broken link.
   */
  buyLinks?: BuyLinkMode;
}

const isFunction = (value: unknown) => typeof value === 'function';

/** The options schema for one call: include/exclude may name the built-ins and `toolNames`. */
function optionsSchema(toolNames: readonly string[]) {
  const names = z.enum(toolNames as [string, ...string[]]);
  return z.strictObject({
    client: z
      .custom<CatalogClient>(
        (value) =>
          isRecord(value) && ['catalog', 'websites', 'collections'].every((key) => key in value),
        'must be a CatalogClient',
      )
      .optional(),
    clientOptions: z.custom<CatalogClientOptions>(isRecord, 'must be an object').optional(),
    store: z
      .custom<CatalogStore>(
        isCatalogStore,
        'must be a CatalogStore (get, set, setIfAbsent, delete and lock methods)',
      )
      .optional(),
    tools: z
      .array(z.custom<AnyCatalogToolDefinition>(isToolDefinition, 'must be a tool definition'))
      .optional(),
    include: z.array(names).optional(),
    exclude: z.array(names).optional(),
    defaults: z
      .strictObject({
        country: CountryCodeSchema.optional(),
        placements: z.array(z.string().min(1)).optional(),
        limit: z.int().min(1).max(TOOL_RESULT_LIMIT_MAX).optional(),
      })
      .optional(),
    rename: z.custom<(name: string) => string>(isFunction, 'must be a function').optional(),
    strict: z.boolean().optional(),
    buyLinks: z.enum(['inline', 'reference']).optional(),
  });
}

function isToolDefinition(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    ['description', 'execute', 'toModelOutput'].every((key) => isFunction(value[key])) &&
    isRecord(value.inputSchema)
  );
}

/** Names of the built-ins followed by those of `tools` (unchecked; see validateToolOptions). */
export function allToolNames(options: CatalogToolsOptions<AnyCatalogToolDefinition>): string[] {
  const custom = Array.isArray(options.tools)
    ? options.tools.map((tool: unknown) => (isRecord(tool) ? tool.name : undefined))
    : [];
  return [...CATALOG_TOOL_NAMES, ...custom.filter((name) => typeof name === 'string')];
}

/** Checks the options; throws a ConfigurationError naming each bad option. */
export function validateToolOptions<Extra extends AnyCatalogToolDefinition>(
  options: CatalogToolsOptions<Extra>,
): CatalogToolsOptions<Extra> {
  try {
    validateRequest(optionsSchema(allToolNames(options)), options, 'catalog tools options');
  } catch (error) {
    if (error instanceof RequestValidationError) {
      throw new ConfigurationError(
        error.message.replace(
          /^Invalid catalog tools options request/,
          'Invalid catalog tools options',
        ),
      );
    }
    throw error;
  }
  if (options.client && options.clientOptions) {
    throw new ConfigurationError(
      'Invalid catalog tools options: give client or clientOptions, not both',
    );
  }
  assertCustomNames(options.tools ?? []);
  return options;
}

/** Custom tools need usable names that no other tool has. */
function assertCustomNames(tools: readonly AnyCatalogToolDefinition[]): void {
  const seen = new Set<string>(CATALOG_TOOL_NAMES);
  for (const [index, tool] of tools.entries()) {
    assertToolName(tool.name, `Invalid catalog tools options: tools.${index}.name`);
    if (seen.has(tool.name)) {
      throw new ConfigurationError(
        `Invalid catalog tools options: tools.${index}.name ${tool.name} is already taken`,
      );
    }
    seen.add(tool.name);
  }
}

/** The tools the options select, in their canonical order (built-ins first). */
export function selectToolNames(options: CatalogToolsOptions<AnyCatalogToolDefinition>): string[] {
  const all = allToolNames(options);
  const included: readonly string[] = options.include ?? all;
  const selected = all.filter(
    (name) => included.includes(name) && !options.exclude?.includes(name),
  );
  if (selected.length === 0) {
    throw new ConfigurationError('Invalid catalog tools options: include/exclude leave no tools');
  }
  return selected;
}

/** Applies the rename hook to every tool and checks every final name. */
export function finalToolNames(
  options: CatalogToolsOptions<AnyCatalogToolDefinition>,
): Record<CatalogToolName, string> & Record<string, string> {
  const rename = options.rename ?? ((name: string) => name);
  const names: Record<string, string> = {};
  const seen = new Set<string>();
  for (const original of allToolNames(options)) {
    const name: unknown = rename(original);
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      throw new ConfigurationError(
        `Invalid catalog tools options: rename gave ${JSON.stringify(name)} for ${original}; tool names must match ${TOOL_NAME_PATTERN.source}`,
      );
    }
    if (seen.has(name)) {
      throw new ConfigurationError(
        `Invalid catalog tools options: rename gave the name ${name} to two tools`,
      );
    }
    seen.add(name);
    names[original] = name;
  }
  return names as Record<CatalogToolName, string> & Record<string, string>;
}
