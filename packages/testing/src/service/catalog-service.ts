import { CatalogClient } from '@catalogkit/core';
import {
  DEFAULT_KEYS,
  type EmulatorKeys,
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from '@catalogkit/emulator';
import { isJson, type Json } from '../json.js';
import {
  catalogAnswers,
  retailerSites,
  type SearchAnswer,
  searchAnswers,
  webAddressesIn,
} from './answers.js';
import { type CollectionsSnapshot, snapshotCollections } from './collections.js';
import { echoKeyInAnswer } from './echo.js';
import { type ServiceExchange, ServiceProxy } from './proxy.js';
import { catalogToolOutput } from './tool-output.js';

/** Options of {@link startCatalogService}: the emulator's, and how the service misbehaves. */
export interface CatalogServiceOptions extends Omit<StartEmulatorOptions, 'port' | 'host'> {
  /** Which of the emulator's keys the agent's client gets (default `'valid'`). */
  key?: keyof EmulatorKeys;
  /**
   * Echo the key the client sends in every answer (product titles, retailer and collection
   * names, error details), as a careless or hostile service might: what reaches the model
   * or the shopper must still never show it.
   */
  echoKey?: boolean;
}

/** Where the agent's client finds the service: pass as `clientOptions` to any adapter. */
export interface ServiceClientOptions {
  apiKey: string;
  baseUrl: string;
  mcpUrl: string;
}

/** A buy-link source as core's `verifyBuyLinks` takes it. */
export interface BuyLinkSource {
  toolName: string;
  output: unknown;
}

/** The catalog service of one test: the emulator behind a recording proxy. */
export interface CatalogService {
  /** The emulator: `faults`, `state`, `stats`, `payments`, `keys`. */
  emulator: RunningEmulator;
  /** Client options that reach the service through the proxy, with the chosen key. */
  clientOptions: ServiceClientOptions;
  /** Every request the client sent and what came back, in order. */
  exchanges: readonly ServiceExchange[];
  /** The collections as they were when the service started. */
  collectionsAtStart: CollectionsSnapshot;
  /** Every `search_catalog` result the service gave. */
  searches(): SearchAnswer[];
  /**
   * The true outputs of the catalog tools (`search_catalog`, `lookup_catalog`,
   * `get_product`), as the application gets them, for `verifyBuyLinks` and
   * `finalizeBuyLinks`: what the service really answered.
   */
  buyLinkSources(): BuyLinkSource[];
  /**
   * Every URL the service's results hold: the retailer sites of `search_websites` answers and
   * the product pages and pictures of the catalog tools' results. An answer may show them,
   * exactly as given (they are the catalog's, not foreign links).
   */
  catalogUrls(): string[];
  /**
   * The tools the service's MCP endpoint lists (`tools/list`), for `createCatalogTools({
   * serviceTools })`: read from the emulator itself, so the read is no request of the run.
   */
  serviceTools(): Promise<readonly string[]>;
  /** Requests that reached the service, optionally only those matching `method` and `path`. */
  requestCount(filter?: { method?: string; path?: RegExp }): number;
  /**
   * Every secret a test must find nowhere the model or the shopper can see: the key given to
   * the client, any payment credential it sent, and the conversation tokens minted.
   */
  secrets(): string[];
  close(): Promise<void>;
}

function paymentCredentials(exchanges: readonly ServiceExchange[]): string[] {
  return exchanges.flatMap((exchange) => {
    const header = exchange.requestHeaders.authorization;
    return typeof header === 'string' && /^Payment /i.test(header) ? [header.slice(8).trim()] : [];
  });
}

/** The true outputs of the catalog tools (search, lookup, get_product), as the application gets them. */
function buyLinkSources(exchanges: readonly ServiceExchange[]): BuyLinkSource[] {
  return catalogAnswers(exchanges).map((answer) => ({
    toolName: answer.tool,
    output: catalogToolOutput(isJson(answer.catalog) ? answer.catalog : {}, answer.result as Json),
  }));
}

/**
 * Starts the emulator (on loopback, a free port) behind a recording proxy. The client
 * options it gives go through the proxy, so the service's every answer is known (the buy
 * links it really gave, the requests per answer), and faults set on `emulator.faults` reach
 * the client as they would from the real service.
 *
 * @example
 * const service = await startCatalogService();
 * service.emulator.faults.set({ routes: ['PATCH /v1/collections/:id'], drop: 'after', times: 1 });
 * const tools = createCatalogTools({ clientOptions: service.clientOptions });
 * // ... run the agent, then assert
 * assertNoChangeAppliedTwice(service);
 * await service.close();
 */
export async function startCatalogService(
  options: CatalogServiceOptions = {},
): Promise<CatalogService> {
  const { key = 'valid', echoKey = false, ...emulatorOptions } = options;
  if (!Object.hasOwn(DEFAULT_KEYS, key)) {
    throw new RangeError(
      `key must be one of ${Object.keys(DEFAULT_KEYS).join(', ')}, got ${String(key)}`,
    );
  }
  const emulator = await startEmulator({ ...emulatorOptions, port: 0 });
  const proxy = new ServiceProxy(new URL(emulator.baseUrl));
  if (echoKey) proxy.rewrite = echoKeyInAnswer;
  let origin: string;
  try {
    origin = await proxy.start();
  } catch (error) {
    await emulator.close();
    throw error;
  }
  const pathOf = (url: string) => new URL(url).pathname;
  const apiKey = emulator.keys[key];
  return {
    emulator,
    clientOptions: {
      apiKey,
      baseUrl: `${origin}${pathOf(emulator.baseUrl)}`,
      mcpUrl: `${origin}${pathOf(emulator.mcpUrl)}`,
    },
    exchanges: proxy.exchanges,
    collectionsAtStart: snapshotCollections(emulator.state.collections),
    searches: () => searchAnswers(proxy.exchanges),
    buyLinkSources: () => buyLinkSources(proxy.exchanges),
    catalogUrls: () => [
      ...new Set([
        ...retailerSites(proxy.exchanges),
        ...webAddressesIn(buyLinkSources(proxy.exchanges).map((source) => source.output)),
      ]),
    ],
    serviceTools: () =>
      new CatalogClient({ apiKey: emulator.keys.valid, mcpUrl: emulator.mcpUrl }).catalog.tools(),
    requestCount: (filter = {}) =>
      proxy.exchanges.filter(
        (exchange) =>
          (filter.method === undefined || exchange.method === filter.method) &&
          (filter.path === undefined || filter.path.test(exchange.path)),
      ).length,
    secrets: () => [
      apiKey,
      ...paymentCredentials(proxy.exchanges),
      ...emulator.state.tokens.keys(),
    ],
    close: async () => {
      await proxy.close();
      await emulator.close();
    },
  };
}
