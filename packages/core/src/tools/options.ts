import { z } from 'zod/v4';
import type { CatalogClient } from '../client.js';
import type { CatalogClientOptions } from '../client-options.js';
import { ConfigurationError, RequestValidationError } from '../errors/index.js';
import { isRecord } from '../is-record.js';
import { CountryCodeSchema } from '../schemas/index.js';
import { validateRequest } from '../validation.js';
import {
  CATALOG_TOOL_NAMES,
  type CatalogToolDefaults,
  type CatalogToolName,
} from './definition.js';
import { TOOL_RESULT_LIMIT_MAX } from './limits.js';

/** Options shared by every adapter (`@catalogkit/ai-sdk`, `@catalogkit/langchain`). */
export interface CatalogToolsOptions {
  /** The client the tools call. Give this or `clientOptions`, not both. */
  client?: CatalogClient;
  /** Options for a client the tools create (it falls back to the CATALOG_* environment variables). */
  clientOptions?: CatalogClientOptions;
  /** Only these tools (default: all three). */
  include?: readonly CatalogToolName[];
  /** Leave these tools out. */
  exclude?: readonly CatalogToolName[];
  /** Values used when the model leaves a field null. */
  defaults?: CatalogToolDefaults;
  /**
   * Renames the tools, e.g. `(name) => \`shop_${name}\`` for hosts that need a prefix. The
   * result must match `^[a-zA-Z0-9_-]{1,64}$` and be unique.
   */
  rename?: (name: CatalogToolName) => string;
}

/** Tool names every major provider accepts. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const isFunction = (value: unknown) => typeof value === 'function';

const OptionsSchema = z.strictObject({
  client: z
    .custom<CatalogClient>(
      (value) =>
        isRecord(value) && ['catalog', 'websites', 'collections'].every((key) => key in value),
      'must be a CatalogClient',
    )
    .optional(),
  clientOptions: z.custom<CatalogClientOptions>(isRecord, 'must be an object').optional(),
  include: z.array(z.enum(CATALOG_TOOL_NAMES)).optional(),
  exclude: z.array(z.enum(CATALOG_TOOL_NAMES)).optional(),
  defaults: z
    .strictObject({
      country: CountryCodeSchema.optional(),
      placements: z.array(z.string().min(1)).optional(),
      limit: z.int().min(1).max(TOOL_RESULT_LIMIT_MAX).optional(),
    })
    .optional(),
  rename: z.custom<(name: CatalogToolName) => string>(isFunction, 'must be a function').optional(),
});

/** Checks the options; throws a ConfigurationError naming each bad option. */
export function validateToolOptions(options: CatalogToolsOptions): CatalogToolsOptions {
  try {
    validateRequest(OptionsSchema, options, 'catalog tools options');
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
  return options;
}

/** The tools the options select, in their canonical order. */
export function selectToolNames(options: CatalogToolsOptions): CatalogToolName[] {
  const included = options.include ?? CATALOG_TOOL_NAMES;
  const selected = CATALOG_TOOL_NAMES.filter(
    (name) => included.includes(name) && !options.exclude?.includes(name),
  );
  if (selected.length === 0) {
    throw new ConfigurationError('Invalid catalog tools options: include/exclude leave no tools');
  }
  return selected;
}

/** Applies the rename hook and checks every final name. */
export function finalToolNames(options: CatalogToolsOptions): Record<CatalogToolName, string> {
  const rename = options.rename ?? ((name: CatalogToolName) => name);
  const names: Record<CatalogToolName, string> = {
    search_catalog: rename('search_catalog'),
    search_websites: rename('search_websites'),
    update_collection: rename('update_collection'),
  };
  const seen = new Set<string>();
  for (const original of CATALOG_TOOL_NAMES) {
    const name = names[original];
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
  }
  return names;
}
