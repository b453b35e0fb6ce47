import * as z from 'zod/v4';
import type { CatalogClient } from '../client.js';
import type { CatalogClientOptions } from '../client-options.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { isRecord } from '../is-record.js';
import { CountryCodeSchema } from '../schemas/index.js';
import { type CatalogStore, isCatalogStore } from '../store/catalog-store.js';
import { hasLoneSurrogate } from '../validation/text.js';
import type { BuyLinkMode } from './buy-link-reference.js';
import {
  type AnyCatalogToolDefinition,
  CATALOG_TOOL_NAMES,
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
  client: CatalogClient | undefined;
  clientOptions: CatalogClientOptions | undefined;
  /** The `store` given, if any, as checked (never read again from the options). */
  store: CatalogStore | undefined;
  /** The application's own tools, in their order: plain copies read once, names fixed. */
  custom: readonly AnyCatalogToolDefinition[];
  /** The tools to build, in their order: the built-ins first, then `tools`. */
  selected: readonly string[];
  /** Every tool's final name, after `rename`. */
  names: CatalogToolNames;
  defaults: CatalogToolDefaults;
  view: CatalogViewSettings;
  strict: boolean;
}

type Rename = (name: string) => string;

const isFunction = (value: unknown): boolean => typeof value === 'function';

/** The three methods the tools call on a client: a stand-in with these works too. */
const CLIENT_METHODS = [
  ['catalog', 'search'],
  ['websites', 'search'],
  ['collections', 'update'],
] as const;

/** What the tools call on a client: `catalog.search`, `websites.search`, `collections.update`. */
function isClientLike(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return CLIENT_METHODS.every(([group, method]) => {
    const methods = value[group];
    return isRecord(methods) && isFunction(methods[method]);
  });
}

const DEFINITION_FIELDS = [
  'name',
  'description',
  'inputSchema',
  'mutates',
  'execute',
  'toModelOutput',
  'modelFieldName',
] as const;

/**
 * A tool definition as a plain copy, each field read once: the name checked is the name
 * bound, whatever a getter or Proxy would answer later. Methods stay bound to the
 * definition the application gave, so `this` in them is what it was.
 */
function definitionSnapshot(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const field of DEFINITION_FIELDS) {
    const member = value[field];
    if (member !== undefined)
      copy[field] = typeof member === 'function' ? member.bind(value) : member;
  }
  return copy;
}

function isToolDefinition(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    ['description', 'execute', 'toModelOutput'].every((key) => isFunction(value[key])) &&
    isRecord(value.inputSchema)
  );
}

const toolNameList = () => z.array(z.string('must be a tool name')).readonly();

/** The options' own fields, each with the words its error gives. */
function optionFields() {
  return z.strictObject(
    {
      client: z.custom<CatalogClient>(isClientLike, 'must be a CatalogClient').optional(),
      clientOptions: z.custom<CatalogClientOptions>(isRecord, 'must be an object').optional(),
      store: z
        .custom<CatalogStore>(
          isCatalogStore,
          'must be a CatalogStore (get, set, setIfAbsent, delete and lock methods)',
        )
        .optional(),
      tools: z
        .array(
          z
            .unknown()
            .transform(definitionSnapshot)
            .pipe(
              z.custom<AnyCatalogToolDefinition>(
                isToolDefinition,
                'must be a tool definition (made with defineCatalogTool)',
              ),
            ),
        )
        .readonly()
        .optional(),
      include: toolNameList().optional(),
      exclude: toolNameList().optional(),
      defaults: z
        .strictObject(
          {
            country: z.optional(CountryCodeSchema),
            // Sent with every search: a string the wire cannot carry is refused here, not per call.
            placements: z
              .array(
                z
                  .string('must be a string')
                  .min(1, 'must not be empty')
                  .refine((text) => !hasLoneSurrogate(text), 'must be well-formed Unicode'),
              )
              .optional(),
            limit: z
              .int('must be a whole number')
              .min(1, 'must be at least 1')
              .max(TOOL_RESULT_LIMIT_MAX, `must be at most ${TOOL_RESULT_LIMIT_MAX}`)
              .optional(),
          },
          'must be an object',
        )
        .optional(),
      rename: z.custom<Rename>(isFunction, 'must be a function').optional(),
      strict: z.boolean('must be true or false').optional(),
      buyLinks: z.enum(['inline', 'reference'], 'must be inline or reference').optional(),
    },
    'must be an object',
  );
}

type OptionFields = z.output<ReturnType<typeof optionFields>>;
type Issues = z.core.ParsePayload['issues'];

function issue(input: unknown, path: PropertyKey[], message: string): Issues[number] {
  return { code: 'custom', input, path, message };
}

/** Custom tools need usable names that no other tool has. */
function customNameIssues(tools: OptionFields['tools'], issues: Issues): void {
  const seen = new Set<string>(CATALOG_TOOL_NAMES);
  for (const [index, { name }] of (tools ?? []).entries()) {
    const path = ['tools', index, 'name'];
    if (!TOOL_NAME_PATTERN.test(name)) {
      issues.push(
        issue(name, path, `is ${JSON.stringify(name)}; must match ${TOOL_NAME_PATTERN.source}`),
      );
    } else if (seen.has(name)) {
      issues.push(issue(name, path, `${name} is already taken`));
    }
    seen.add(name);
  }
}

/** `include` and `exclude` may only name tools there are. */
function selectionIssues(options: OptionFields, all: readonly string[], issues: Issues): void {
  for (const key of ['include', 'exclude'] as const) {
    for (const [index, name] of (options[key] ?? []).entries()) {
      if (!all.includes(name)) {
        issues.push(issue(name, [key, index], `must be one of ${all.join(', ')}`));
      }
    }
  }
}

/** The final name of every tool, or an issue for each name `rename` got wrong. */
function finalNames(rename: Rename | undefined, all: readonly string[], issues: Issues) {
  const names: Record<string, string> = {};
  const seen = new Set<string>();
  for (const original of all) {
    const name: unknown = rename ? rename(original) : original;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      const text = `gave ${JSON.stringify(name)} for ${original}; tool names must match ${TOOL_NAME_PATTERN.source}`;
      issues.push(issue(name, ['rename'], text));
    } else if (seen.has(name)) {
      issues.push(issue(name, ['rename'], `gave the name ${name} to two tools`));
    }
    seen.add(String(name));
    names[original] = String(name);
  }
  return names as CatalogToolNames;
}

/** Checks what the fields alone cannot, and reads the options into what binding needs. */
function readFields(options: OptionFields, issues: Issues): ToolOptionsRead | undefined {
  const custom = options.tools ?? [];
  const all = [...CATALOG_TOOL_NAMES, ...custom.map((tool) => tool.name)];
  const before = issues.length;
  if (options.client && options.clientOptions) {
    issues.push(issue(options, [], 'give client or clientOptions, not both'));
  }
  customNameIssues(custom, issues);
  selectionIssues(options, all, issues);
  if (issues.length > before) return undefined;
  const included: readonly string[] = options.include ?? all;
  const selected = all.filter(
    (name) => included.includes(name) && !options.exclude?.includes(name),
  );
  if (selected.length === 0) issues.push(issue(options, [], 'include/exclude leave no tools'));
  const names = finalNames(options.rename, all, issues);
  if (issues.length > before) return undefined;
  return {
    client: options.client,
    clientOptions: options.clientOptions,
    store: options.store,
    custom,
    selected,
    names,
    defaults: options.defaults ?? {},
    view: { buyLinks: options.buyLinks ?? 'inline' },
    strict: options.strict !== false,
  };
}

let schema: z.ZodType<ToolOptionsRead> | undefined;

/**
 * The options schema: each field's type, then what needs them all (names known, selected
 * tools, the rename hook), giving the read options. Built on first use, so importing the
 * tools builds nothing.
 */
function toolOptionsSchema(): z.ZodType<ToolOptionsRead> {
  schema ??= optionFields().transform((options, context) => {
    return readFields(options, context.issues) ?? z.NEVER;
  });
  return schema;
}

/** `include.1: must be one of …`: a zod issue in the words of the options. */
function issueText(found: z.core.$ZodIssue): string {
  const path = found.path.map(String).join('.');
  const message =
    found.code === 'unrecognized_keys'
      ? `unknown field${found.keys.length > 1 ? 's' : ''} ${found.keys.join(', ')}`
      : found.code === 'invalid_value'
        ? `must be one of ${found.values.map(String).join(', ')}`
        : found.message;
  return path ? `${path}: ${message}` : message;
}

/**
 * Reads the catalog tools options, once: checks every field (throwing a ConfigurationError
 * that names each bad one) and gives what `createCatalogToolList` binds the tools with.
 */
export function readToolOptions(options: unknown): ToolOptionsRead {
  const parsed = toolOptionsSchema().safeParse(options);
  if (parsed.success) return parsed.data;
  const texts = parsed.error.issues.map(issueText);
  // zod runs the checks across fields only once every field passes: with other errors,
  // an unknown name in include/exclude would go unreported until those are fixed.
  for (const found of earlySelectionIssues(options)) {
    const text = issueText(found);
    if (!texts.includes(text)) texts.push(text);
  }
  throw new ConfigurationError(`Invalid catalog tools options: ${texts.join('; ')}`);
}

/**
 * The include/exclude issues of options that failed their field checks, from whatever the
 * fields hold: tool names are the built-ins and every custom tool with a string name.
 */
function earlySelectionIssues(options: unknown): z.core.$ZodIssue[] {
  if (!isRecord(options)) return [];
  const custom = Array.isArray(options.tools) ? options.tools : [];
  const all = [
    ...CATALOG_TOOL_NAMES,
    ...custom.flatMap((tool: unknown) =>
      isRecord(tool) && typeof tool.name === 'string' ? [tool.name] : [],
    ),
  ];
  const issues: Issues = [];
  for (const key of ['include', 'exclude'] as const) {
    const list: unknown = options[key];
    if (!Array.isArray(list)) continue;
    for (const [index, name] of list.entries()) {
      // A non-string has its own issue already ("must be a tool name").
      if (typeof name === 'string' && !all.includes(name)) {
        issues.push(issue(name, [key, index], `must be one of ${all.join(', ')}`));
      }
    }
  }
  return issues as z.core.$ZodIssue[];
}
