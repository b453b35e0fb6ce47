import type { z } from 'zod/v4';
import { CatalogClient } from '../client.js';
import { ConfigurationError, RequestValidationError } from '../errors/catalog-error.js';
import { isRecord } from '../is-record.js';
import { getProductTool } from './built-in/get-product.js';
import { lookupCatalogTool } from './built-in/lookup-catalog.js';
import { searchCatalogTool } from './built-in/search-catalog.js';
import { searchWebsitesTool } from './built-in/search-websites.js';
import { updateCollectionTool } from './built-in/update-collection.js';
import type {
  AnyCatalogToolDefinition,
  CatalogToolClient,
  CatalogToolDefinition,
  CatalogToolName,
  CatalogToolResult,
} from './definition.js';
import { errorTextForModel } from './error-text.js';
import { type CatalogToolsOptions, readToolOptions } from './options.js';

/** A catalog tool bound to a client, options and its final name: what the adapters wrap. */
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
  toModelOutput(output: Output): string;
  /** The text the model reads for a failure; `undefined` for errors the adapter rethrows. */
  errorToModelOutput(error: unknown): string | undefined;
}

/** The bound form of a custom tool definition, with its own input, output and name. */
export type BoundCatalogTool<Definition> =
  Definition extends CatalogToolDefinition<infer Input, infer Output, infer Name>
    ? CatalogTool<Input, Output, Name>
    : never;

function bindTool<Input, Output extends CatalogToolResult, Name extends string>(
  definition: CatalogToolDefinition<Input, Output, Name>,
  client: CatalogToolClient,
  { defaults, names, buyLinks }: ReturnType<typeof readToolOptions>,
): CatalogTool<Input, Output, Name> {
  const name = names[definition.name] ?? definition.name;
  // What the model reads and what the application forwards (a browser) pass the client's
  // redactor: it knows the key the client sends, so an echo of it never reaches either.
  return {
    name,
    originalName: definition.name,
    description: definition.description(names, buyLinks),
    inputSchema: definition.inputSchema,
    needsApproval: definition.mutates,
    async execute(input, { signal } = {}) {
      // Frameworks validate too, but a direct call must not reach the service unchecked. Every
      // bad field is named at once, in the schema's words (the built-ins' are for a model).
      const parsed = definition.inputSchema.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          path: issue.path.join('.'),
          message: issue.message,
        }));
        throw new RequestValidationError(name, issues);
      }
      const output: unknown = await definition.execute(parsed.data, { client, defaults, signal });
      // Plain JavaScript could return another shape, which every adapter would hand on.
      if (!isRecord(output) || !('request' in output && 'response' in output)) {
        throw new ConfigurationError(
          `Tool ${definition.name} returned no { request, response }; execute must return a CatalogToolResult`,
        );
      }
      return client.redact(output as Output);
    },
    toModelOutput: (output) => client.redact(definition.toModelOutput(output, buyLinks)),
    errorToModelOutput(error) {
      const text = errorTextForModel(error, definition.modelFieldName);
      return text === undefined ? undefined : client.redact(text);
    },
  };
}

const BUILT_INS = {
  search_catalog: searchCatalogTool,
  lookup_catalog: lookupCatalogTool,
  get_product: getProductTool,
  search_websites: searchWebsitesTool,
  update_collection: updateCollectionTool,
};

/** Any bound built-in; `tool.originalName === 'search_catalog'` narrows it. */
export type AnyCatalogTool = {
  [Name in keyof typeof BUILT_INS]: BoundCatalogTool<(typeof BUILT_INS)[Name]>;
}[keyof typeof BUILT_INS];

/** Builds the selected catalog tools; a ConfigurationError names each bad option. */
export function createCatalogToolList<Extra extends AnyCatalogToolDefinition = never>(
  options: CatalogToolsOptions<Extra> = {},
): Array<AnyCatalogTool | BoundCatalogTool<Extra>> {
  const read = readToolOptions(options);
  // Settings are not checked here: tools made at module scope must import (and `next build`
  // pass) without the CATALOG_* settings; the client names a missing one at the first call.
  const client = read.client ?? new CatalogClient(read.clientOptions);
  const builtIns: Record<string, AnyCatalogToolDefinition> = BUILT_INS;
  // Each is one of `options.tools` or a built-in (the names differ), so the bound tool has the
  // type of one; custom first, as a custom name may be an Object.prototype member.
  return read.selected.map((name) =>
    bindTool(read.custom.find((tool) => tool.name === name) ?? builtIns[name]!, client, read),
  ) as Array<AnyCatalogTool | BoundCatalogTool<Extra>>;
}
