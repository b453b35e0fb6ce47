import { ENV_VARS } from '../client-options.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import type { CatalogToolClient, CatalogToolName } from './definition.js';

/** A client setting a built-in tool cannot work without. */
type Setting = keyof typeof ENV_VARS;

/**
 * What each built-in needs: the catalog search runs on the MCP endpoint (a key is optional:
 * without one it uses the anonymous tier); the other two are REST calls that need the base
 * URL and a key.
 */
const NEEDED_SETTINGS: Readonly<Record<CatalogToolName, readonly Setting[]>> = {
  search_catalog: ['mcpUrl'],
  search_websites: ['baseUrl', 'apiKey'],
  update_collection: ['baseUrl', 'apiKey'],
};

const SETTING_NAMES: Readonly<Record<Setting, string>> = {
  apiKey: 'an API key',
  baseUrl: 'the REST base URL',
  mcpUrl: 'the MCP URL',
};

/** The settings a client has. */
function configuredSettings(client: CatalogToolClient): ReadonlySet<Setting> {
  const { baseUrl, mcpUrl } = client.toJSON();
  const settings = new Set<Setting>();
  if (client.hasApiKey) settings.add('apiKey');
  if (typeof baseUrl === 'string') settings.add('baseUrl');
  if (typeof mcpUrl === 'string') settings.add('mcpUrl');
  return settings;
}

function isBuiltIn(name: string): name is CatalogToolName {
  return Object.hasOwn(NEEDED_SETTINGS, name);
}

/** `a`, `a and b`, `a, b and c`. */
function listText(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function missingText(tool: string, missing: readonly Setting[]): string {
  const what = listText(missing.map((setting) => SETTING_NAMES[setting]));
  const how = missing.map((setting) => `the ${setting} option or ${ENV_VARS[setting]}`);
  return `${tool} needs ${what} (set ${listText(how)})`;
}

/**
 * Throws a ConfigurationError when a selected built-in tool could never work with the
 * client's settings, naming each missing setting (option and environment variable) and how
 * to leave the tool out: a model would otherwise only learn of it on its first call. Tools
 * whose settings are all there are fine on their own (`include: ['search_catalog']` needs
 * only the MCP URL).
 */
export function assertToolsConfigured(
  client: CatalogToolClient,
  selected: readonly string[],
): void {
  const settings = configuredSettings(client);
  const problems = selected.filter(isBuiltIn).flatMap((tool) => {
    const missing = NEEDED_SETTINGS[tool].filter((setting) => !settings.has(setting));
    return missing.length === 0 ? [] : [{ tool, text: missingText(tool, missing) }];
  });
  if (problems.length === 0) return;
  const tools = problems.map(({ tool }) => `'${tool}'`).join(', ');
  throw new ConfigurationError(
    `Catalog tools are not configured: ${problems.map(({ text }) => text).join('; ')}. Or leave ${problems.length === 1 ? 'it' : 'them'} out with exclude: [${tools}].`,
  );
}
