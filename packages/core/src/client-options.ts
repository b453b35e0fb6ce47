import { ConfigurationError } from './errors/catalog-error.js';
import { DEFAULT_BODY_LIMITS } from './http/call-scope.js';
import { MAX_SECRET_LENGTH } from './http/redact.js';
import { DEFAULT_RETRY_POLICY } from './http/retry.js';
import type { CatalogInstrumentation } from './instrumentation.js';
import type { CatalogLogger } from './logger.js';
import type { PaymentOptions } from './payment/types.js';
import { type CatalogStore, checkStore } from './store/catalog-store.js';
import { MemoryCatalogStore } from './store/memory-store.js';

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
  mcpAuthHeader?: 'x-api-key' | 'bearer';
  /** Receives retry notices. Never given the key. */
  logger?: CatalogLogger;
  /** Largest answer read, in decoded bytes; past it a ResponseTooLargeError. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Longest event-stream line, in bytes; past it the same error. Default 4 MiB. */
  maxSseLineBytes?: number;
  /**
   * Machine payments: on a 402 with `Payment` challenges, `payment.pay` may return a
   * credential to resend the request with, once. `@catalogkit/mppx` provides a budgeted payer.
   */
  payment?: PaymentOptions;
  /**
   * Where state shared with other instances lives (the rate-limit pause, the tools' update
   * guard); default a private in-memory store. See the README's "Deploying".
   */
  store?: CatalogStore;
  /** Told of each call's attempts, answers and waits: `@catalogkit/otel` makes spans of them. */
  instrumentation?: CatalogInstrumentation;
}

/** Options after defaults, environment fallbacks and checks. */
export type ResolvedOptions = ReturnType<typeof resolveOptions>;

/** Names of the environment variables the options fall back to. */
export const ENV_VARS = {
  apiKey: 'CATALOG_API_KEY',
  baseUrl: 'CATALOG_BASE_URL',
  mcpUrl: 'CATALOG_MCP_URL',
} as const;

/** Reads an environment variable where `process` exists (Node, Bun, Deno); else undefined. */
function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  try {
    return env?.[name]?.trim() || undefined;
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
  const source = fromOption ? `option ${option}` : ENV_VARS[option];
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
  // fetch refuses such a URL, and errors and toJSON would show the password.
  if (url.username || url.password)
    throw new ConfigurationError(`${source} must not hold a user name or password`);
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

/** A JavaScript caller's non-function would fail only when called, as a raw TypeError. */
function checkFunction<T>(name: string, value: T, required = false): T {
  if ((required || value !== undefined) && typeof value !== 'function')
    throw new ConfigurationError(`option ${name} must be a function`);
  return value;
}

/** A JavaScript caller's `'Bearer'` must not quietly send the key as `x-api-key`. */
function checkAuthHeader(value: string | undefined): 'x-api-key' | 'bearer' {
  if (value === undefined || value === 'x-api-key' || value === 'bearer')
    return value ?? 'x-api-key';
  throw new ConfigurationError(`option mcpAuthHeader must be 'x-api-key' or 'bearer'`);
}

/**
 * A key is a header value: printable ASCII (fetch would send `é` as one Latin-1 byte, a form
 * the redactor does not look for), at most {@link MAX_SECRET_LENGTH} long. Never echoed.
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

/** Applies defaults and environment fallbacks, and checks what TypeScript cannot. */
export function resolveOptions(options: CatalogClientOptions = {}) {
  const limit = (name: 'maxResponseBytes' | 'maxSseLineBytes') =>
    checkNumber(name, options[name], 1, DEFAULT_BODY_LIMITS[name], true);
  const retry = (name: 'maxRetries' | 'maxRetryDelayMs', integer: boolean) =>
    checkNumber(name, options[name], 0, DEFAULT_RETRY_POLICY[name], integer);
  // Called through globalThis so browsers do not throw "Illegal invocation".
  const fetch: typeof globalThis.fetch =
    checkFunction('fetch', options.fetch) ?? ((input, init) => globalThis.fetch(input, init));
  const payment = options.payment || undefined;
  checkFunction('payment.pay', payment?.pay, payment !== undefined);
  checkFunction('payment.onReceipt', payment?.onReceipt);
  const store = checkStore(options.store ?? new MemoryCatalogStore());
  return {
    apiKey: checkApiKey(options.apiKey?.trim() || readEnv(ENV_VARS.apiKey)),
    baseUrl: resolveUrl('baseUrl', options.baseUrl),
    mcpUrl: resolveUrl('mcpUrl', options.mcpUrl),
    fetch,
    timeoutMs: checkNumber('timeoutMs', options.timeoutMs, 1, 60_000),
    retry: {
      ...DEFAULT_RETRY_POLICY,
      maxRetries: retry('maxRetries', true),
      maxRetryDelayMs: retry('maxRetryDelayMs', false),
    },
    // Lower-cased so the client's own headers replace a caller's of the same name.
    headers: Object.fromEntries(
      Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    mcpAuthHeader: checkAuthHeader(options.mcpAuthHeader),
    logger: options.logger,
    limits: {
      maxResponseBytes: limit('maxResponseBytes'),
      maxSseLineBytes: limit('maxSseLineBytes'),
    },
    payment,
    store,
    // A falsy one (`tracing && otel`) is none.
    instrumentation: options.instrumentation || undefined,
  };
}
