import type { CatalogClient } from '../client.js';
import type { CatalogClientOptions } from '../client-options.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { isRecord } from '../is-record.js';
import { COUNTRY_CODES } from '../schemas/index.js';
import { type CatalogStore, isCatalogStore } from '../store/catalog-store.js';
import { hasLoneSurrogate } from '../validation/text.js';
import type { BuyLinkMode } from './buy-link-reference.js';
import { DEFAULT_BUY_LINK_MODE } from './catalog-view.js';
import {
  type AnyCatalogToolDefinition,
  CATALOG_TOOL_NAMES,
  type CatalogToolClient,
  type CatalogToolDefaults,
  type CatalogToolName,
  type CatalogToolNames,
  type CatalogViewSettings,
  TOOL_NAME_PATTERN,
} from './definition.js';
import { TOOL_RESULT_LIMIT_MAX } from './limits.js';

/** The built-ins offered only when the service lists them (`serviceTools`). */
export const LOOKUP_TOOL_NAMES = ['lookup_catalog', 'get_product'] as const;

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
   * include/exclude by their names. A name may not repeat a built-in's, nor be
   * `lookup_catalog` or `get_product` (reserved for the service's tools, listed or not).
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
   * How the model reads buy links. `reference` (default): a short reference per offer
   * (`[[buy:123456789]]`) that the model writes where the link goes; no URL of the catalog
   * reaches the model, and the application resolves the references before showing the answer
   * (`finalizeBuyLinks`, or the adapters' helpers and stream transform): about a third of the
   * tokens, and a miscopied reference is reported instead of becoming a broken link.
   * `inline` (opt-in, for hosts that show the model's text as written): the links themselves,
   * byte for byte; check the answer with `finalizeBuyLinks` (or `verifyBuyLinks`), which
   * repairs corrupted copies.
   */
  buyLinks?: BuyLinkMode;
  /**
   * The tools the service's MCP endpoint lists: pass `await client.catalog.tools()`.
   * `lookup_catalog` and `get_product` join the tool set only when listed here; without
   * this option the tool set is search_catalog, search_websites, update_collection (and
   * `tools`). An option, not a call, so creating tools stays free of I/O.
   */
  serviceTools?: readonly string[];
}

/** The options once read: everything `createCatalogToolList` binds the tools with. */
export interface ToolOptionsRead {
  /** The client given, if any (else one is made from `clientOptions`). */
  client: CatalogToolClient | undefined;
  clientOptions: CatalogClientOptions | undefined;
  /** The `store` given, if any, as checked (never read again from the options). */
  store: CatalogStore | undefined;
  /** The application's own tools, in their order. */
  custom: readonly AnyCatalogToolDefinition[];
  /** The tools to build, in their order: the built-ins first, then `tools`. */
  selected: readonly string[];
  /** Every tool's final name, after `rename`. */
  names: CatalogToolNames;
  defaults: CatalogToolDefaults;
  view: CatalogViewSettings;
  strict: boolean;
}

/** `path: words` for each bad option, in the order found. */
type Issues = string[];
/** Checks a value at `path`, adding what is wrong with it to `issues`. */
type Check = (value: unknown, issues: Issues, path: string) => void;

const at = (path: string, words: string) => (path ? `${path}: ${words}` : words);

/** A check of one value: `words` says what is wrong, undefined when nothing is. */
const rule =
  (words: (value: unknown) => string | undefined): Check =>
  (value, issues, path) => {
    const wrong = words(value);
    if (wrong !== undefined) issues.push(at(path, wrong));
  };

const must = (ok: (value: unknown) => boolean, words: string): Check =>
  rule((value) => (ok(value) ? undefined : words));

const listOf =
  (item: Check, words: string): Check =>
  (value, issues, path) => {
    if (!Array.isArray(value)) issues.push(at(path, words));
    else for (const [index, entry] of value.entries()) item(entry, issues, `${path}.${index}`);
  };

/** An object with only these fields, each checked when given. */
const fieldsOf =
  (checks: Record<string, Check>): Check =>
  (value, issues, path) => {
    if (!isRecord(value)) {
      issues.push(at(path, 'must be an object'));
      return;
    }
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(checks, key));
    if (unknown.length > 0) {
      issues.push(at(path, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`));
    }
    for (const [key, check] of Object.entries(checks)) {
      if (value[key] !== undefined) check(value[key], issues, path ? `${path}.${key}` : key);
    }
  };

const isFunction = (value: unknown) => typeof value === 'function';

/** What the tools use of a client (`CatalogToolClient`): a CatalogClient, or a stand-in. */
function isToolClient(value: unknown): value is CatalogToolClient {
  const calls = (group: string, method: string) =>
    isRecord(value) && isRecord(value[group]) && isFunction(value[group][method]);
  return (
    isRecord(value) &&
    calls('catalog', 'search') &&
    calls('websites', 'search') &&
    calls('collections', 'update') &&
    isCatalogStore(value.store) &&
    ['storeScope', 'redact', 'toJSON'].every((method) => isFunction(value[method]))
  );
}

function isToolDefinition(value: unknown): value is AnyCatalogToolDefinition {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    ['description', 'execute', 'toModelOutput'].every((key) => isFunction(value[key])) &&
    isRecord(value.inputSchema)
  );
}

const toolNames = () =>
  listOf(
    must((name) => typeof name === 'string', 'must be a tool name'),
    'must be an array of tool names',
  );

/** The options' own fields, each with the words its error gives. */
const checkOptions = () =>
  fieldsOf({
    client: must(isToolClient, 'must be a CatalogClient'),
    clientOptions: must(isRecord, 'must be an object'),
    store: must(
      isCatalogStore,
      'must be a CatalogStore (get, set, setIfAbsent, delete and lock methods)',
    ),
    tools: listOf(
      must(isToolDefinition, 'must be a tool definition (made with defineCatalogTool)'),
      'must be an array of tool definitions',
    ),
    include: toolNames(),
    exclude: toolNames(),
    serviceTools: toolNames(),
    defaults: fieldsOf({
      country: must(
        (code) => (COUNTRY_CODES as readonly unknown[]).includes(code),
        `must be one of ${COUNTRY_CODES.join(', ')}`,
      ),
      // Sent with every search: a string the wire cannot carry is refused here, not per call.
      placements: listOf(
        rule((text) => {
          if (typeof text !== 'string') return 'must be a string';
          if (text === '') return 'must not be empty';
          return hasLoneSurrogate(text) ? 'must be well-formed Unicode' : undefined;
        }),
        'must be an array of strings',
      ),
      limit: rule((limit) => {
        if (!Number.isInteger(limit)) return 'must be a whole number';
        if ((limit as number) < 1) return 'must be at least 1';
        const max = TOOL_RESULT_LIMIT_MAX;
        return (limit as number) > max ? `must be at most ${max}` : undefined;
      }),
    }),
    rename: must(isFunction, 'must be a function'),
    strict: must((value) => typeof value === 'boolean', 'must be true or false'),
    buyLinks: must(
      (mode) => mode === 'inline' || mode === 'reference',
      'must be inline or reference',
    ),
  });

/**
 * Custom tool names: each usable and its own. The lookup tools' names are reserved whether or
 * not the service lists them: inside catalogkit's tool sets `lookup_catalog` and `get_product`
 * always mean the service's tools, so trusting their results by name (`CATALOG_RESULT_TOOLS`)
 * holds by construction.
 */
function customNameIssues(custom: readonly AnyCatalogToolDefinition[], issues: Issues): void {
  const seen = new Set<string>([...CATALOG_TOOL_NAMES, ...LOOKUP_TOOL_NAMES]);
  custom.forEach(({ name }, index) => {
    const path = `tools.${index}.name`;
    if (!TOOL_NAME_PATTERN.test(name)) {
      issues.push(`${path}: is ${JSON.stringify(name)}; must match ${TOOL_NAME_PATTERN.source}`);
    } else if ((LOOKUP_TOOL_NAMES as readonly string[]).includes(name)) {
      issues.push(
        `${path}: ${name} is reserved for the catalog service's own tool (its results are trusted buy-link sources); name yours differently`,
      );
    } else if (seen.has(name)) {
      issues.push(`${path}: ${name} is already taken`);
    }
    seen.add(name);
  });
}

/** `include` and `exclude` may only name tools there are (checked whatever else is wrong). */
function selectionIssues(options: CatalogToolsOptions, all: readonly string[], issues: Issues) {
  for (const key of ['include', 'exclude'] as const) {
    const list: unknown = options[key];
    if (!Array.isArray(list)) continue;
    list.forEach((name: unknown, index) => {
      if (typeof name === 'string' && !all.includes(name)) {
        issues.push(`${key}.${index}: must be one of ${all.join(', ')}`);
      }
    });
  }
}

/** The final name of every tool, or an issue for each name `rename` got wrong. */
function finalNames(options: CatalogToolsOptions, all: readonly string[], issues: Issues) {
  const names: Record<string, string> = {};
  const seen = new Set<string>();
  for (const original of all) {
    const name: unknown = options.rename ? options.rename(original) : original;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      const pattern = TOOL_NAME_PATTERN.source;
      issues.push(
        `rename: gave ${JSON.stringify(name)} for ${original}; tool names must match ${pattern}`,
      );
    } else if (seen.has(name)) {
      issues.push(`rename: gave the name ${name} to two tools`);
    }
    seen.add(String(name));
    names[original] = String(name);
  }
  return names as CatalogToolNames;
}

/** Every custom tool's string name, whether or not its definition is right. */
function namesIn(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) =>
    isRecord(tool) && typeof tool.name === 'string' ? [tool.name] : [],
  );
}

/**
 * Reads the catalog tools options, once: checks every field (throwing a ConfigurationError
 * that names each bad one) and gives what `createCatalogToolList` binds the tools with.
 * Their types are TypeScript's to check; these checks keep a caller without types (or with
 * a cast) from failing later, on a model's first call.
 */
export function readToolOptions(given: unknown): ToolOptionsRead {
  if (!isRecord(given))
    throw new ConfigurationError('Invalid catalog tools options: must be an object');
  // One read of each option (a getter answers once): what was checked is what is bound.
  const options = { ...given } as CatalogToolsOptions;
  const issues: Issues = [];
  checkOptions()(options, issues, '');
  const names = namesIn(options.tools);
  const served = Array.isArray(options.serviceTools) ? options.serviceTools : [];
  const builtIns = [...CATALOG_TOOL_NAMES, ...LOOKUP_TOOL_NAMES.filter((n) => served.includes(n))];
  selectionIssues(options, [...builtIns, ...names], issues);
  if (options.client !== undefined && options.clientOptions !== undefined) {
    issues.push('give client or clientOptions, not both');
  }
  const custom = [...(options.tools ?? [])];
  if (issues.length === 0) customNameIssues(custom, issues);
  const all = [...builtIns, ...names];
  const included: readonly string[] = options.include ?? all;
  const selected = all.filter(
    (name) => included.includes(name) && !options.exclude?.includes(name),
  );
  if (issues.length === 0 && selected.length === 0) issues.push('include/exclude leave no tools');
  const finalNamesOf = issues.length === 0 ? finalNames(options, all, issues) : undefined;
  if (finalNamesOf === undefined || issues.length > 0) {
    throw new ConfigurationError(`Invalid catalog tools options: ${issues.join('; ')}`);
  }
  return {
    client: options.client,
    clientOptions: options.clientOptions,
    store: options.store,
    custom,
    selected,
    names: finalNamesOf,
    defaults: options.defaults ?? {},
    view: { buyLinks: options.buyLinks ?? DEFAULT_BUY_LINK_MODE },
    strict: options.strict !== false,
  };
}
