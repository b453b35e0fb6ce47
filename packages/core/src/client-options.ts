import { ConfigurationError } from './errors/catalog-error.js';
import { type BodyLimits, DEFAULT_BODY_LIMITS } from './http/call-scope.js';
import { MAX_SECRET_LENGTH } from './http/redact.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './http/retry.js';
import type { CatalogInstrumentation } from './instrumentation.js';
import type { CatalogLogger } from './logger.js';
import type { PaymentOptions } from './payment/types.js';
import { type CatalogStore, isCatalogStore } from './store/catalog-store.js';
import { MemoryCatalogStore } from './store/memory-store.js';

/** How the API key is sent to the MCP endpoint (the REST interface always uses `x-api-key`). */
export type McpAuthHeader = 'x-api-key' | 'bearer';

/** Options of `new CatalogClient(options)`. Every field is optional. */
export interface CatalogClientOptions {
  /** API key. Default: `CATALOG_API_KEY`. Needed for REST calls; optional for catalog search. */
  apiKey?: string;
  /** REST base address, e.g. `https://api.example.com`. Default: `CATALOG_BASE_URL`. */
  baseUrl?: string;
  /** MCP base address; requests go to `${mcpUrl}/mcp`. Default: `CATALOG_MCP_URL`. */
  mcpUrl?: string;
  /** A fetch implementation. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Time limit of one call, all attempts and waits included. Default 60 000 ms. */
  timeoutMs?: number;
  /** Repeats after the first attempt, for failures that are safe to repeat. Default 2. */
  maxRetries?: number;
  /** Cap on the total wait between attempts of one call. Default 20 000 ms. */
  maxRetryDelayMs?: number;
  /** Extra headers sent with every request (lowest priority). */
  headers?: Record<string, string>;
  /** Header carrying the key to the MCP endpoint. Default `x-api-key`. */
  mcpAuthHeader?: McpAuthHeader;
  /** Receives retry notices. Never given the key. */
  logger?: CatalogLogger;
  /**
   * Largest answer (JSON, event stream or error body) the client reads, in bytes after
   * decoding; past it the request is aborted with a ResponseTooLargeError. Default 10 MiB.
   */
  maxResponseBytes?: number;
  /**
   * Longest line of an event-stream answer, in bytes; past it the request is aborted with
   * a ResponseTooLargeError. Default 4 MiB.
   */
  maxSseLineBytes?: number;
  /**
   * Machine payments: on a 402 with `Payment` challenges, `payment.pay` may return a
   * credential to resend the request with, once. `@catalogkit/mppx` provides a budgeted payer.
   */
  payment?: PaymentOptions;
  /**
   * Where state shared with other instances lives (the rate-limit pause, the tools' update
   * guard). Default: a private in-memory store. Pass one `@catalogkit/redis` store to every
   * instance to share it; see the README's "Deploying".
   */
  store?: CatalogStore;
  /**
   * Told of each call's attempts, answers, retry waits and rate-limit pauses, and of its
   * end: `@catalogkit/otel` makes OpenTelemetry spans and metrics of them. Default: none.
   */
  instrumentation?: CatalogInstrumentation;
}

/** Options after defaults, environment fallbacks and checks. */
export interface ResolvedOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  mcpUrl: string | undefined;
  fetch: typeof fetch;
  timeoutMs: number;
  retry: RetryPolicy;
  headers: Record<string, string>;
  mcpAuthHeader: McpAuthHeader;
  logger: CatalogLogger | undefined;
  limits: BodyLimits;
  payment: PaymentOptions | undefined;
  store: CatalogStore;
  instrumentation: CatalogInstrumentation | undefined;
}

/** Names of the environment variables the options fall back to. */
export const ENV_VARS = {
  apiKey: 'CATALOG_API_KEY',
  baseUrl: 'CATALOG_BASE_URL',
  mcpUrl: 'CATALOG_MCP_URL',
} as const;

const DEFAULT_TIMEOUT_MS = 60_000;

/** Reads an environment variable where `process` exists (Node, Bun, Deno); else undefined. */
function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  try {
    const value = env?.[name]?.trim();
    return value ? value : undefined;
  } catch {
    // Deno without --allow-env throws NotCapable on the read: an unreadable variable is unset.
    return undefined;
  }
}

/** Checks an address option, dropping trailing slashes so paths can be appended. */
function resolveUrl(option: 'baseUrl' | 'mcpUrl', given: string | undefined): string | undefined {
  const fromOption = given?.trim();
  const value = fromOption || readEnv(ENV_VARS[option]);
  if (!value) return undefined;
  const source = fromOption ? `option ${option}` : `${ENV_VARS[option]}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${source} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`${source} must be an http(s) URL`);
  }
  // Paths are appended to it: a query or fragment would swallow them.
  if (/[?#]/.test(url.href)) {
    throw new ConfigurationError(`${source} must not have a query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

function checkNumber(name: string, value: unknown, min: number, fallback: number, integer = false) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new ConfigurationError(`option ${name} must be a number of at least ${min}`);
  }
  if (integer && !Number.isInteger(value)) {
    throw new ConfigurationError(`option ${name} must be an integer`);
  }
  return value;
}

function resolveFetch(given: typeof fetch | undefined): typeof fetch {
  if (given !== undefined) {
    if (typeof given !== 'function')
      throw new ConfigurationError('option fetch must be a function');
    return given;
  }
  if (typeof globalThis.fetch !== 'function') {
    throw new ConfigurationError('no global fetch in this runtime: pass the fetch option');
  }
  // Called through globalThis so browsers do not throw "Illegal invocation".
  return (input, init) => globalThis.fetch(input, init);
}

function resolveRetry({ maxRetries, maxRetryDelayMs }: CatalogClientOptions): RetryPolicy {
  const defaults = DEFAULT_RETRY_POLICY;
  return {
    ...defaults,
    maxRetries: checkNumber('maxRetries', maxRetries, 0, defaults.maxRetries, true),
    maxRetryDelayMs: checkNumber('maxRetryDelayMs', maxRetryDelayMs, 0, defaults.maxRetryDelayMs),
  };
}

function resolveLimits(options: CatalogClientOptions): BodyLimits {
  const limit = (name: keyof BodyLimits) =>
    checkNumber(name, options[name], 1, DEFAULT_BODY_LIMITS[name], true);
  return { maxResponseBytes: limit('maxResponseBytes'), maxSseLineBytes: limit('maxSseLineBytes') };
}

function resolvePayment(value: PaymentOptions | undefined): PaymentOptions | undefined {
  if (value === undefined) return undefined;
  if (typeof value?.pay !== 'function')
    throw new ConfigurationError('option payment.pay must be a function');
  if (value.onReceipt !== undefined && typeof value.onReceipt !== 'function')
    throw new ConfigurationError('option payment.onReceipt must be a function');
  return value;
}

function resolveStore(value: CatalogStore | undefined): CatalogStore {
  if (value === undefined) return new MemoryCatalogStore();
  if (!isCatalogStore(value)) {
    throw new ConfigurationError(
      'option store must be a CatalogStore (get, set, setIfAbsent, delete and lock methods)',
    );
  }
  return value;
}

function resolveMcpAuthHeader(value: McpAuthHeader | undefined): McpAuthHeader {
  if (value === undefined || value === 'x-api-key' || value === 'bearer')
    return value ?? 'x-api-key';
  throw new ConfigurationError(`option mcpAuthHeader must be 'x-api-key' or 'bearer'`);
}

// Lower-cased so the client's own headers replace a caller's of the same name.
function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

function resolveInstrumentation(
  value: CatalogInstrumentation | undefined,
): CatalogInstrumentation | undefined {
  if (value === undefined || typeof value?.startCall === 'function') return value;
  throw new ConfigurationError(
    'option instrumentation must have a startCall method (see @catalogkit/otel)',
  );
}

/**
 * A key is sent as a header value, so it must be printable ASCII (fetch would send `é` as
 * one Latin-1 byte, a form the redactor does not look for) and at most
 * {@link MAX_SECRET_LENGTH} characters. The message never echoes the key.
 */
function checkApiKey(apiKey: string | undefined): string | undefined {
  if (apiKey !== undefined && !/^[\x20-\x7e]*$/.test(apiKey))
    throw new ConfigurationError(
      'option apiKey must be printable ASCII (header values are ASCII): it holds a control or non-ASCII character',
    );
  if ((apiKey?.length ?? 0) > MAX_SECRET_LENGTH)
    throw new ConfigurationError(`option apiKey is longer than ${MAX_SECRET_LENGTH} characters`);
  return apiKey;
}

/** Applies defaults and environment fallbacks, and checks every option. */
export function resolveOptions(options: CatalogClientOptions = {}): ResolvedOptions {
  return {
    apiKey: checkApiKey(options.apiKey?.trim() || readEnv(ENV_VARS.apiKey)),
    baseUrl: resolveUrl('baseUrl', options.baseUrl),
    mcpUrl: resolveUrl('mcpUrl', options.mcpUrl),
    fetch: resolveFetch(options.fetch),
    timeoutMs: checkNumber('timeoutMs', options.timeoutMs, 1, DEFAULT_TIMEOUT_MS),
    retry: resolveRetry(options),
    headers: lowerCaseNames(options.headers ?? {}),
    mcpAuthHeader: resolveMcpAuthHeader(options.mcpAuthHeader),
    logger: options.logger,
    limits: resolveLimits(options),
    payment: resolvePayment(options.payment),
    store: resolveStore(options.store),
    instrumentation: resolveInstrumentation(options.instrumentation),
  };
}
