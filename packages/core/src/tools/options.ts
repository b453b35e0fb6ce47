import type { CatalogClient } from '../client.js';
import type { CatalogClientOptions } from '../client-options.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { isRecord } from '../is-record.js';
import type { BuyLinkMode } from '../links/references.js';
import { COUNTRY_CODES } from '../schemas/index.js';
import { type CatalogStore, isCatalogStore } from '../store/catalog-store.js';
import { hasLoneSurrogate } from '../validation/text.js';
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

/** `path: message` for each bad option, in the order found. */
type Issues = string[];

const OPTION_FIELDS = [
  'client',
  'clientOptions',
  'store',
  'tools',
  'include',
  'exclude',
  'defaults',
  'rename',
  'strict',
  'buyLinks',
] as const;
const DEFAULT_FIELDS = ['country', 'placements', 'limit'] as const;

const isFunction = (value: unknown): value is (...args: never[]) => unknown =>
  typeof value === 'function';

/** What the tools use of a client: a CatalogClient, or a stand-in with the same members. */
const CLIENT_METHODS = [
  ['catalog', 'search'],
  ['websites', 'search'],
  ['collections', 'update'],
] as const;

function isToolClient(value: unknown): value is CatalogToolClient {
  if (!isRecord(value)) return false;
  const calls = CLIENT_METHODS.every(([group, method]) => {
    const methods = value[group];
    return isRecord(methods) && isFunction(methods[method]);
  });
  return (
    calls &&
    isCatalogStore(value.store) &&
    isFunction(value.storeScope) &&
    isFunction(value.redact) &&
    isFunction(value.toJSON)
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

function unknownFields(value: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !known.includes(key));
}

function unknownText(keys: readonly string[]): string {
  return `unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
}

/** A list of tool names (`include`, `exclude`): an array of strings. */
function nameList(value: unknown, key: string, issues: Issues): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    issues.push(`${key}: must be an array of tool names`);
    return undefined;
  }
  value.forEach((name, index) => {
    if (typeof name !== 'string') issues.push(`${key}.${index}: must be a tool name`);
  });
  return value;
}

function placementIssues(value: unknown, issues: Issues): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    issues.push('defaults.placements: must be an array of strings');
    return;
  }
  // Sent with every search: a string the wire cannot carry is refused here, not per call.
  value.forEach((item: unknown, index) => {
    const path = `defaults.placements.${index}`;
    if (typeof item !== 'string') issues.push(`${path}: must be a string`);
    else if (item.length === 0) issues.push(`${path}: must not be empty`);
    else if (hasLoneSurrogate(item)) issues.push(`${path}: must be well-formed Unicode`);
  });
}

function limitIssue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value)) return 'must be a whole number';
  if ((value as number) < 1) return 'must be at least 1';
  if ((value as number) > TOOL_RESULT_LIMIT_MAX) return `must be at most ${TOOL_RESULT_LIMIT_MAX}`;
  return undefined;
}

/** `defaults`: a country the service knows, non-empty placements, a limit of 1 to 20. */
function readDefaults(value: unknown, issues: Issues): CatalogToolDefaults {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    issues.push('defaults: must be an object');
    return {};
  }
  const unknown = unknownFields(value, DEFAULT_FIELDS);
  if (unknown.length > 0) issues.push(`defaults: ${unknownText(unknown)}`);
  const { country, placements, limit } = value;
  if (country !== undefined && !(COUNTRY_CODES as readonly unknown[]).includes(country)) {
    issues.push(`defaults.country: must be one of ${COUNTRY_CODES.join(', ')}`);
  }
  placementIssues(placements, issues);
  const limitProblem = limitIssue(limit);
  if (limitProblem) issues.push(`defaults.limit: ${limitProblem}`);
  return { country, placements, limit } as CatalogToolDefaults;
}

/**
 * `tools`: definitions made with defineCatalogTool, each with a usable name of its own.
 * `named`: every entry's string name, valid or not, so include/exclude are checked anyway.
 */
function readCustomTools(value: unknown, issues: Issues) {
  const custom: AnyCatalogToolDefinition[] = [];
  const named: string[] = [];
  if (value === undefined) return { custom, named };
  if (!Array.isArray(value)) {
    issues.push('tools: must be an array of tool definitions');
    return { custom, named };
  }
  const seen = new Set<string>(CATALOG_TOOL_NAMES);
  value.forEach((tool: unknown, index) => {
    const name = isRecord(tool) ? tool.name : undefined;
    if (typeof name === 'string') named.push(name);
    if (!isToolDefinition(tool) || typeof name !== 'string') {
      issues.push(`tools.${index}: must be a tool definition (made with defineCatalogTool)`);
    } else if (!TOOL_NAME_PATTERN.test(name)) {
      issues.push(
        `tools.${index}.name: is ${JSON.stringify(name)}; must match ${TOOL_NAME_PATTERN.source}`,
      );
    } else if (seen.has(name)) {
      issues.push(`tools.${index}.name: ${name} is already taken`);
    } else {
      custom.push(tool);
    }
    if (typeof name === 'string') seen.add(name);
  });
  return { custom, named };
}

/** `include` and `exclude` may only name tools there are (checked whatever else is wrong). */
function selectionIssues(lists: Record<'include' | 'exclude', unknown>, all: string[]): Issues {
  const issues: Issues = [];
  for (const key of ['include', 'exclude'] as const) {
    const list = lists[key];
    if (!Array.isArray(list)) continue;
    list.forEach((name: unknown, index) => {
      if (typeof name === 'string' && !all.includes(name)) {
        issues.push(`${key}.${index}: must be one of ${all.join(', ')}`);
      }
    });
  }
  return issues;
}

/** The final name of every tool, or an issue for each name `rename` got wrong. */
function finalNames(rename: Rename | undefined, all: readonly string[], issues: Issues) {
  const names: Record<string, string> = {};
  const seen = new Set<string>();
  for (const original of all) {
    const name: unknown = rename ? rename(original) : original;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      issues.push(
        `rename: gave ${JSON.stringify(name)} for ${original}; tool names must match ${TOOL_NAME_PATTERN.source}`,
      );
    } else if (seen.has(name)) {
      issues.push(`rename: gave the name ${name} to two tools`);
    }
    seen.add(String(name));
    names[original] = String(name);
  }
  return names as CatalogToolNames;
}

type Rename = (name: string) => string;

/** Each option read once, checked, and the type-level promise kept at run time. */
function checkFields(options: Record<string, unknown>, issues: Issues) {
  const { client, clientOptions, store, tools, include, exclude, defaults, rename, strict } =
    options;
  const { buyLinks } = options;
  const unknown = unknownFields(options, OPTION_FIELDS);
  if (unknown.length > 0) issues.push(unknownText(unknown));
  if (client !== undefined && !isToolClient(client)) issues.push('client: must be a CatalogClient');
  if (clientOptions !== undefined && !isRecord(clientOptions)) {
    issues.push('clientOptions: must be an object');
  }
  if (store !== undefined && !isCatalogStore(store)) {
    issues.push('store: must be a CatalogStore (get, set, setIfAbsent, delete and lock methods)');
  }
  const { custom, named } = readCustomTools(tools, issues);
  const lists = {
    include: nameList(include, 'include', issues),
    exclude: nameList(exclude, 'exclude', issues),
  };
  const read = {
    client,
    clientOptions,
    store,
    custom,
    named,
    lists,
    defaults: readDefaults(defaults, issues),
  };
  if (rename !== undefined && !isFunction(rename)) issues.push('rename: must be a function');
  if (strict !== undefined && typeof strict !== 'boolean') {
    issues.push('strict: must be true or false');
  }
  if (buyLinks !== undefined && buyLinks !== 'inline' && buyLinks !== 'reference') {
    issues.push('buyLinks: must be inline or reference');
  }
  return {
    ...read,
    rename: rename as Rename | undefined,
    strict,
    buyLinks: buyLinks as BuyLinkMode | undefined,
  };
}

/**
 * Reads the catalog tools options, once: checks every field (throwing a ConfigurationError
 * that names each bad one) and gives what `createCatalogToolList` binds the tools with.
 * Their types are TypeScript's to check; these checks keep a caller without types (or with
 * a cast) from failing later, on a model's first call.
 */
export function readToolOptions(options: unknown): ToolOptionsRead {
  if (!isRecord(options)) {
    throw new ConfigurationError('Invalid catalog tools options: must be an object');
  }
  const issues: Issues = [];
  const read = checkFields(options, issues);
  issues.push(...selectionIssues(read.lists, [...CATALOG_TOOL_NAMES, ...read.named]));
  const all = [...CATALOG_TOOL_NAMES, ...read.custom.map((tool) => tool.name)];
  if (read.client !== undefined && read.clientOptions !== undefined) {
    issues.push('give client or clientOptions, not both');
  }
  let names: CatalogToolNames | undefined;
  let selected: string[] = [];
  if (issues.length === 0) {
    const included: readonly string[] = read.lists.include ?? all;
    selected = all.filter((name) => included.includes(name) && !read.lists.exclude?.includes(name));
    if (selected.length === 0) issues.push('include/exclude leave no tools');
    names = finalNames(read.rename, all, issues);
  }
  if (issues.length > 0 || names === undefined) {
    throw new ConfigurationError(`Invalid catalog tools options: ${issues.join('; ')}`);
  }
  return {
    client: read.client as CatalogToolClient | undefined,
    clientOptions: read.clientOptions as CatalogClientOptions | undefined,
    store: read.store as CatalogStore | undefined,
    custom: read.custom,
    selected,
    names,
    defaults: read.defaults,
    view: { buyLinks: read.buyLinks ?? 'inline' },
    strict: read.strict !== false,
  };
}
