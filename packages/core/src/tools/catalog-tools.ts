import * as z from 'zod/v4';
import { CatalogClient } from '../client.js';
import { ENV_VARS, readEnv } from '../client-options.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { createRedactor, type Redactor } from '../http/redact.js';
import type { CatalogStore } from '../store/catalog-store.js';
import {
  type GetProductInput,
  type GetProductOutput,
  getProductTool,
} from './built-in/get-product.js';
import {
  type LookupCatalogInput,
  type LookupCatalogOutput,
  lookupCatalogTool,
} from './built-in/lookup-catalog.js';
import { type SearchCatalogInput, searchCatalogTool } from './built-in/search-catalog.js';
import {
  type SearchWebsitesInput,
  type SearchWebsitesOutput,
  searchWebsitesTool,
} from './built-in/search-websites.js';
import {
  type UpdateCollectionInput,
  type UpdateCollectionOutput,
  updateCollectionTool,
} from './built-in/update-collection.js';
import type { SearchCatalogOutput } from './catalog-view.js';
import { assertToolsConfigured } from './configuration.js';
import {
  type AnyCatalogToolDefinition,
  CATALOG_TOOL_NAMES,
  type CatalogToolClient,
  type CatalogToolDefaults,
  type CatalogToolDefinition,
  type CatalogToolName,
  type CatalogToolNames,
  type CatalogViewSettings,
} from './definition.js';
import { errorTextForModel } from './error-text.js';
import { validateToolInput } from './input/check.js';
import {
  type CatalogToolsOptions,
  LOOKUP_TOOL_NAMES,
  readToolOptions,
  type ToolOptionsRead,
} from './options.js';
import { assertCatalogToolResult, type CatalogToolResult } from './result.js';
import { findStrictModeViolations } from './strict-mode.js';

/**
 * A catalog tool bound to a client, options and its final name: what the adapters wrap.
 * `execute` validates the input, calls the service and returns the full result, a
 * {@link CatalogToolResult} (or throws the client's typed error); the two formatters give
 * the model's view of either.
 */
export interface CatalogTool<
  Input,
  Output extends CatalogToolResult,
  Name extends string = CatalogToolName,
> {
  /** Final name, after the rename hook. */
  readonly name: string;
  /** Name before the rename hook; narrows an {@link AnyCatalogTool} to its types. */
  readonly originalName: Name;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  /** True for tools that change the user's data (hosts should ask for approval). */
  readonly needsApproval: boolean;
  execute(input: Input, options?: { signal?: AbortSignal }): Promise<Output>;
  /** The compact text the model reads for a result. */
  toModelOutput(output: Output): string;
  /**
   * The short text the model reads for a failure, or `undefined` when the error is not the
   * model's to handle (bad configuration, cancellation, a bug): the adapter rethrows those.
   */
  errorToModelOutput(error: unknown): string | undefined;
}

/** Any bound built-in; `tool.originalName === 'search_catalog'` narrows it. */
export type AnyCatalogTool =
  | CatalogTool<SearchCatalogInput, SearchCatalogOutput, 'search_catalog'>
  | CatalogTool<LookupCatalogInput, LookupCatalogOutput, 'lookup_catalog'>
  | CatalogTool<GetProductInput, GetProductOutput, 'get_product'>
  | CatalogTool<SearchWebsitesInput, SearchWebsitesOutput, 'search_websites'>
  | CatalogTool<UpdateCollectionInput, UpdateCollectionOutput, 'update_collection'>;

/** The bound form of a custom tool definition, with its own input, output and name. */
export type BoundCatalogTool<Definition> =
  Definition extends CatalogToolDefinition<infer Input, infer Output, infer Name>
    ? CatalogTool<Input, Output, Name>
    : never;

interface BindContext {
  client: CatalogToolClient;
  store: CatalogStore;
  view: CatalogViewSettings;
  defaults: CatalogToolDefaults;
  names: CatalogToolNames;
  redact: Redactor;
  /** Throws the ConfigurationError of missing settings; run on a call, never at creation. */
  assertConfigured: () => void;
}

function bindTool<Input, Output extends CatalogToolResult, Name extends string>(
  definition: CatalogToolDefinition<Input, Output, Name>,
  { client, defaults, names, redact, view, store, assertConfigured }: BindContext,
): CatalogTool<Input, Output, Name> {
  const nameField = definition.modelFieldName ?? ((path: string) => path);
  return {
    name: finalName(names, definition.name),
    originalName: definition.name,
    description: definition.description(names, view),
    inputSchema: definition.inputSchema,
    needsApproval: definition.mutates,
    async execute(input, options = {}) {
      assertConfigured();
      // Frameworks validate too, but a direct call must not reach the service unchecked.
      const parsed = validateToolInput(
        definition.inputSchema,
        input,
        finalName(names, definition.name),
      );
      const output = await definition.execute(parsed, {
        client,
        defaults,
        signal: options.signal,
        store,
      });
      // A custom tool written without the types must not hand the adapters another shape.
      assertCatalogToolResult(output, definition.name);
      // The full result reaches more than the model (AI SDK UI streams, LangChain artifacts,
      // MCP structuredContent, OpenAI Agents custom data): a key the service echoed must not.
      // A paid answer already left the client redacted with its call's own credential.
      return redact(output);
    },
    toModelOutput: (output) => redact(definition.toModelOutput(output, view)),
    errorToModelOutput(error) {
      const text = errorTextForModel(error, nameField);
      return text === undefined ? undefined : redact(text);
    },
  };
}

function finalName(names: CatalogToolNames, original: string): string {
  return names[original] ?? original;
}

/**
 * A custom tool's input schema must pass OpenAI strict mode like the built-ins' do (they are
 * checked by the tests), or providers in strict mode would refuse the whole request.
 */
function assertStrictModeSchema(definition: AnyCatalogToolDefinition): void {
  let problems: string[];
  try {
    problems = findStrictModeViolations(z.toJSONSchema(definition.inputSchema));
  } catch (error) {
    problems = [`not representable as JSON Schema (${String(error)})`];
  }
  if (problems.length > 0) {
    throw new ConfigurationError(
      `Invalid catalog tools options: the input schema of tool ${definition.name} does not pass OpenAI strict mode (${problems.join('; ')}); make every field required (nullable for "not given") and objects strict, or set strict: false`,
    );
  }
}

/**
 * The redactor of everything the model reads. The client knows the key it actually sends
 * (its own option, or the environment when it was built), so it is asked first: a client
 * passed in with its own key and no `CATALOG_API_KEY` is covered too. Any key in the options
 * or the environment is removed as well; both match in any letter case.
 */
function modelTextRedactor(
  client: CatalogToolClient,
  clientOptions: ToolOptionsRead['clientOptions'],
): Redactor {
  const others = createRedactor(clientOptions?.apiKey?.trim(), readEnv(ENV_VARS.apiKey));
  return <T>(value: T): T => others(client.redact(value));
}

/**
 * Builds the selected catalog tools from the shared options: reads the options once
 * (throwing a ConfigurationError naming each bad one), creates or takes the client, applies
 * the rename hook and defaults. Adapters call this and only translate the result.
 */
export function createCatalogToolList<Extra extends AnyCatalogToolDefinition = never>(
  options: CatalogToolsOptions<Extra> = {},
): Array<AnyCatalogTool | BoundCatalogTool<Extra>> {
  const read = readToolOptions(options);
  if (read.strict) {
    read.custom.filter((tool) => read.selected.includes(tool.name)).forEach(assertStrictModeSchema);
  }
  const client =
    read.client ??
    new CatalogClient(
      read.store ? { store: read.store, ...read.clientOptions } : read.clientOptions,
    );
  const context: BindContext = {
    client,
    store: read.store ?? client.store,
    view: read.view,
    defaults: read.defaults,
    names: read.names,
    // Model-facing text and tool outputs pass through this, so a key echoed by the service
    // never reaches the model or anything the application forwards (a browser).
    redact: modelTextRedactor(client, read.clientOptions),
    // Checked at the first call, not here: tools built at module scope must import (and a
    // `next build` must pass) without the CATALOG_* settings that only the runtime has.
    assertConfigured: () => assertToolsConfigured(client, read.selected),
  };
  const builtIns: Record<BuiltInName, () => AnyCatalogTool> = {
    search_catalog: () => bindTool(searchCatalogTool, context),
    lookup_catalog: () => bindTool(lookupCatalogTool, context),
    get_product: () => bindTool(getProductTool, context),
    search_websites: () => bindTool(searchWebsitesTool, context),
    update_collection: () => bindTool(updateCollectionTool, context),
  };
  return read.selected.map((name) => {
    if (isBuiltInName(name)) return builtIns[name]();
    // Its definition is one of `options.tools`, so the bound tool has the type of one.
    const definition = read.custom.find((tool) => tool.name === name) as Extra;
    return bindTool(definition, context) as BoundCatalogTool<Extra>;
  });
}

type BuiltInName = CatalogToolName | (typeof LOOKUP_TOOL_NAMES)[number];

function isBuiltInName(name: string): name is BuiltInName {
  return [...CATALOG_TOOL_NAMES, ...LOOKUP_TOOL_NAMES].some((builtIn) => builtIn === name);
}
