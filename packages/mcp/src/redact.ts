import type { CatalogToolsOptions } from '@catalogkit/core';

/** Removes the API key from a JSON value. */
export type Redactor = <T>(value: T) => T;

/** The key the tools' client uses: the option, else `CATALOG_API_KEY` where `process` exists. */
function apiKeyOf(options: Pick<CatalogToolsOptions, 'clientOptions'>): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return options.clientOptions?.apiKey?.trim() || env?.CATALOG_API_KEY?.trim();
}

/**
 * The tools keep the key out of the text the model reads; the full result reaches the host
 * too (as `structuredContent`), so it is cleaned as well, in case the service echoes the key
 * in a field. The result is JSON, so the key is replaced in its JSON text (escaped the way
 * JSON escapes it). Keys shorter than 4 characters are ignored: real keys are long, and a
 * very short one would shred ordinary text.
 */
export function createKeyRedactor(options: Pick<CatalogToolsOptions, 'clientOptions'>): Redactor {
  const key = apiKeyOf(options);
  if (key === undefined || key.length < 4) return (value) => value;
  const inJson = JSON.stringify(key).slice(1, -1);
  return <T>(value: T): T => JSON.parse(JSON.stringify(value).split(inJson).join('[redacted]'));
}
