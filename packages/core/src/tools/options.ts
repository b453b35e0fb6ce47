import type { CatalogClient } from '../client.js';
import type { CatalogClientOptions } from '../client-options.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { SearchCatalogInputSchema } from './built-in/search-catalog.js';
import { SearchWebsitesInputSchema } from './built-in/search-websites.js';
import type { BuyLinkMode } from './buy-link-reference.js';
import {
  type AnyCatalogToolDefinition,
  CATALOG_TOOL_NAMES,
  type CatalogToolDefaults,
  type CatalogToolName,
  type CatalogToolNames,
  LOOKUP_TOOL_NAMES,
  TOOL_NAME_PATTERN,
} from './definition.js';

/** Options shared by every adapter; `Extra` is the type of the tools added with `tools`. */
export interface CatalogToolsOptions<Extra extends AnyCatalogToolDefinition = never> {
  /** The client the tools call. Give this or `clientOptions`, not both. */
  client?: CatalogClient;
  /**
   * Options for a client the tools create. Give every instance the same Redis `store`, so a
   * change of unknown outcome is not repeated by another process.
   */
  clientOptions?: CatalogClientOptions;
  /**
   * Your own tools (made with `defineCatalogTool`), added after the built-ins and treated
   * like them. Their names may not repeat a built-in's, `lookup_catalog` or `get_product`.
   */
  tools?: readonly Extra[];
  /** Only these tools (default: all, the built-ins and `tools`). */
  include?: readonly (CatalogToolName | (string & {}))[];
  /** Leave these tools out. */
  exclude?: readonly (CatalogToolName | (string & {}))[];
  /** Values used when the model leaves a field null. */
  defaults?: CatalogToolDefaults;
  /** Renames the tools, e.g. `(name) => \`shop_${name}\``; results must match `^[a-zA-Z0-9_-]{1,64}$` and differ. */
  rename?(name: CatalogToolName | (string & {})): string;
  /**
   * `reference` (default): the model reads `[[buy:123456789]]` per offer, resolved by
   * `finalizeBuyLinks`; `inline`: the links byte for byte.
   */
  buyLinks?: BuyLinkMode;
  /**
   * The tools the service lists (`await client.catalog.tools()`): `lookup_catalog` and
   * `get_product` join only when listed (an option, so making tools does no I/O).
   */
  serviceTools?: readonly string[];
}

/** Every tool's final name; an issue for a name that breaks the pattern or is taken. */
function finalNames(
  all: readonly string[],
  builtIns: number,
  rename: CatalogToolsOptions['rename'],
  issues: string[],
) {
  const names: Record<string, string> = Object.create(null); // `constructor` may be a tool
  const taken = new Set<string>();
  all.forEach((original, index) => {
    const name = rename ? rename(original) : original;
    const where = rename ? 'rename: gave' : `tools.${index - builtIns}.name:`;
    if (!TOOL_NAME_PATTERN.test(name)) {
      issues.push(
        `${where} ${JSON.stringify(name)} for ${original}; tool names must match ${TOOL_NAME_PATTERN.source}`,
      );
    } else if (taken.has(name)) {
      issues.push(
        rename ? `rename: gave the name ${name} to two tools` : `${where} ${name} is already taken`,
      );
    }
    taken.add(name);
    names[original] ??= name;
  });
  return names as CatalogToolNames;
}

/**
 * The defaults as the tools read a model's values (`'uk'` is GB), copied once: a bad one is the
 * application's, named now rather than refused at every call as the model's.
 */
function readDefaults({ limit, country, placements }: CatalogToolDefaults, issues: string[]) {
  const websites = SearchWebsitesInputSchema.safeParse({ query: '-', limit, country });
  const catalog = SearchCatalogInputSchema.safeParse({ query: '-', placements });
  for (const issue of [...(websites.error?.issues ?? []), ...(catalog.error?.issues ?? [])]) {
    issues.push(`defaults.${issue.path.join('.')}: ${issue.message}`);
  }
  const { limit: given, country: code } = websites.data ?? {};
  const placed = catalog.data?.placements ?? undefined;
  return { limit: given ?? undefined, country: code ?? undefined, placements: placed };
}

/** Checks what a type cannot (names that clash or match no tool, a bad default). */
export function readToolOptions(options: CatalogToolsOptions<AnyCatalogToolDefinition>) {
  const { client, clientOptions, include, exclude, rename } = options;
  const custom = [...(options.tools ?? [])];
  const issues: string[] = [];
  if (client && clientOptions) issues.push('give client or clientOptions, not both');
  // A retired option: a store there would hold the guard's records apart from the client's.
  if ('store' in options) {
    issues.push(
      'store: give it to the client (clientOptions.store or new CatalogClient({ store }))',
    );
  }
  const served = LOOKUP_TOOL_NAMES.filter((name) => options.serviceTools?.includes(name));
  const builtIns = [...CATALOG_TOOL_NAMES, ...served];
  custom.forEach(({ name }, index) => {
    if (!(LOOKUP_TOOL_NAMES as readonly string[]).includes(name)) return;
    issues.push(
      `tools.${index}.name: ${name} is reserved for the catalog service's own tool (its results are trusted as buy-link sources); give yours another name`,
    );
  });
  const all = [...builtIns, ...custom.map((tool) => tool.name)];
  for (const key of ['include', 'exclude'] as const) {
    options[key]?.forEach((name, index) => {
      if (!all.includes(name)) issues.push(`${key}.${index}: must be one of ${all.join(', ')}`);
    });
  }
  // Any other value would print the links as they are: checked, since references keep URLs from the model.
  const { buyLinks = 'reference' } = options;
  if (buyLinks !== 'inline' && buyLinks !== 'reference') {
    issues.push('buyLinks: must be inline or reference');
  }
  const defaults = readDefaults(options.defaults ?? {}, issues);
  const selected = all.filter(
    (name) => (include ?? all).includes(name) && !exclude?.includes(name),
  );
  if (selected.length === 0 && issues.length === 0) issues.push('include/exclude leave no tools');
  const names = finalNames(all, builtIns.length, rename, issues);
  if (issues.length > 0) {
    throw new ConfigurationError(`Invalid catalog tools options: ${issues.join('; ')}`);
  }
  return { client, clientOptions, custom, selected, names, defaults, buyLinks };
}
