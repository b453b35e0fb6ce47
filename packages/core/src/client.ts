import { ClientConnection } from './client-connection.js';
import { type CatalogClientOptions, resolveOptions } from './client-options.js';
import { McpError } from './errors/mcp-errors.js';
import { callRest, type RestRequest, type RestResponse } from './http/rest-call.js';
import type { RequestOptions } from './http/service-connection.js';
import {
  type CatalogLookupResponse,
  GET_PRODUCT,
  type GetProductResponse,
  LOOKUP,
  listCatalogTools,
} from './mcp/catalog-lookup.js';
import {
  type CatalogCallOptions,
  type CatalogToolResponse,
  callCatalogTool,
  SEARCH,
} from './mcp/catalog-search.js';
import { createConversation, searchWebsites, updateCollection } from './rest-operations.js';
import type { CatalogQuery, CatalogSearchResult } from './schemas/catalog.js';
import type { CatalogLookup, ProductSelection } from './schemas/catalog-lookup.js';
import type { Collection, CollectionUpdate } from './schemas/collections.js';
import type { Conversation, ConversationCreate } from './schemas/conversations.js';
import type { WebsiteSearchParams, WebsiteSearchResponse } from './schemas/websites.js';
import type { CatalogStore } from './store/catalog-store.js';

/** Website search (REST). */
export interface WebsitesApi {
  /** Finds retail websites by name or domain, with the best commission rate in `country`. */
  search(params: WebsiteSearchParams, options?: RequestOptions): Promise<WebsiteSearchResponse>;
}

/** Collection update (REST). */
export interface CollectionsApi {
  /**
   * Renames a collection and/or adds, replaces or removes clauses. Not idempotent: resent
   * only when it provably never arrived. After a TimeoutError, or a ConnectionError with
   * `requestSent: true`, the outcome is unknown: read the collection before trying again.
   */
  update(
    collectionId: string,
    body: CollectionUpdate,
    options?: RequestOptions,
  ): Promise<Collection>;
}

/** Options of `client.catalog.tools`. */
export interface CatalogDiscoveryOptions extends RequestOptions {
  /** Reads `tools/list` again instead of the answer cached for this client's life. */
  refresh?: boolean;
}

/** The catalog's MCP tools: `search_catalog`, and `lookup_catalog`/`get_product` when listed. */
export interface CatalogApi {
  /** Searches products (without a key, on the anonymous tier); never rewrite its buy links. */
  search(
    catalog: CatalogQuery,
    options?: CatalogCallOptions,
  ): Promise<CatalogToolResponse<CatalogSearchResult>>;
  /** The tools the MCP endpoint lists, cached for the client's life; `[]` without `tools/list`. */
  tools(options?: CatalogDiscoveryOptions): Promise<readonly string[]>;
  /**
   * `lookup_catalog`: products by `ids` and/or retailer page `urls`; unknown ones as `not_found`.
   * @throws McpError (-32601, nothing sent) when the service does not list the tool.
   */
  lookup(catalog: CatalogLookup, options?: CatalogCallOptions): Promise<CatalogLookupResponse>;
  /**
   * `get_product`: one product, its offers narrowed by `selected` options; unknown: `not_found`.
   * @throws McpError (-32601, nothing sent) when the service does not list the tool.
   */
  getProduct(catalog: ProductSelection, options?: CatalogCallOptions): Promise<GetProductResponse>;
}

/** Conversations (REST). */
export interface ConversationsApi {
  /** Creates a conversation, one per chat (never poll); not resent once it may have arrived. */
  create(body?: ConversationCreate, options?: RequestOptions): Promise<Conversation>;
}

/** A client's configuration without its key: what `JSON.stringify(client)` shows. */
export type ClientSettings = ReturnType<CatalogClient['toJSON']>;

const INSPECT = /* @__PURE__ */ Symbol.for('nodejs.util.inspect.custom');

/**
 * Typed client of the catalog service: requests validated before sending, answers parsed
 * leniently, failures thrown as CatalogError subclasses. The API key is never in errors, logs
 * or serialisations, nor sent to another origin.
 */
export class CatalogClient {
  readonly #connection: ClientConnection;
  #lastRpcId = 0;
  readonly #nextId = () => ++this.#lastRpcId;
  #tools: Promise<readonly string[]> | undefined;

  readonly websites: WebsitesApi;
  readonly collections: CollectionsApi;
  readonly catalog: CatalogApi;
  readonly conversations: ConversationsApi;

  /** @throws ConfigurationError when an option (or its environment variable) is invalid. */
  constructor(options: CatalogClientOptions = {}) {
    const connection = new ClientConnection(resolveOptions(options));
    this.#connection = connection;
    this.websites = { search: (params, opts) => searchWebsites(connection, params, opts) };
    this.collections = {
      update: (collectionId, body, opts) => updateCollection(connection, collectionId, body, opts),
    };
    this.catalog = {
      search: (catalog, opts) => callCatalogTool(connection, this.#nextId, SEARCH, catalog, opts),
      tools: (opts = {}) => this.#listTools(opts),
      lookup: (catalog, opts) =>
        this.#requireTool(LOOKUP.tool, opts?.signal).then(() =>
          callCatalogTool(connection, this.#nextId, LOOKUP, catalog, opts),
        ),
      getProduct: (catalog, opts) =>
        this.#requireTool(GET_PRODUCT.tool, opts?.signal).then(() =>
          callCatalogTool(connection, this.#nextId, GET_PRODUCT, catalog, opts),
        ),
    };
    this.conversations = { create: (body, opts) => createConversation(connection, body, opts) };
    // On the instance: a computed-key method would keep the class in bundles that never use it.
    Object.defineProperty(this, INSPECT, {
      value: () => `CatalogClient ${JSON.stringify(this.toJSON())}`,
    });
  }

  /** A failed read is forgotten, so the next call tries again. */
  #listTools({ refresh, ...options }: CatalogDiscoveryOptions): Promise<readonly string[]> {
    if (this.#tools === undefined || refresh === true) {
      const read = listCatalogTools(this.#connection, this.#nextId, options).then((names) =>
        Object.freeze(names),
      );
      this.#tools = read;
      read.catch(() => {
        if (this.#tools === read) this.#tools = undefined;
      });
    }
    return this.#tools;
  }

  /** Resolves when the service lists `tool`; else JSON-RPC's "method not found", nothing sent. */
  async #requireTool(tool: string, signal: AbortSignal | undefined): Promise<void> {
    if ((await this.#listTools(signal ? { signal } : {})).includes(tool)) return;
    const text = `${tool} is not offered by this service (not in its tools/list)`;
    throw new McpError(-32601, text, undefined);
  }

  /** The store this client shares state through (its `store` option, else a private one). */
  get store(): CatalogStore {
    return this.#connection.options.store;
  }

  /**
   * Ends the rate-limit pause shared through the store, for every instance sharing it; if
   * the limit still holds, the next call's 429 pauses everyone again.
   * @throws StoreUnavailableError when the store fails.
   */
  clearRateLimitPause(): Promise<void> {
    return this.#connection.clearRateLimitPause();
  }

  /** Whether an API key was configured (by option or `CATALOG_API_KEY`). */
  get hasApiKey(): boolean {
    return this.#connection.hasApiKey;
  }

  /**
   * REST call for endpoints without a typed method: same credentials, redirects, timeout
   * and retries, no schema. `retry: 'once'` for anything not idempotent.
   */
  request(request: RestRequest, options?: RequestOptions): Promise<RestResponse> {
    return callRest(this.#connection, request, options);
  }

  /**
   * Replaces the key this client sends with `[redacted]`, 300 levels deep (deeper containers
   * and a cycle's reference back read `[redacted]`): for text a model reads.
   */
  redact<T>(value: T): T {
    return this.#connection.redact(value);
  }

  /** The scope of this client's store entries: a digest of its base URL and API key. */
  storeScope(): Promise<string> {
    return this.#connection.updateScope();
  }

  /** The configuration without the key, for logs and serialisation. */
  toJSON() {
    const { baseUrl, mcpUrl, timeoutMs, mcpAuthHeader, retry } = this.#connection.options;
    const { maxRetries, maxRetryDelayMs } = retry;
    const apiKey = this.hasApiKey ? ('[redacted]' as const) : undefined;
    const settings = { baseUrl, mcpUrl, timeoutMs, maxRetries, maxRetryDelayMs, mcpAuthHeader };
    // Redacted: a gateway's address may hold the key in its path.
    return { ...this.#connection.redact(settings), apiKey };
  }
}
