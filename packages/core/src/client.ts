import { ClientConnection, type ClientSettings } from './client-connection.js';
import { type CatalogClientOptions, resolveOptions } from './client-options.js';
import { callRest, type RestRequest, type RestResponse } from './http/rest-call.js';
import type { RequestOptions } from './http/service-connection.js';
import {
  type CatalogSearchOptions,
  type CatalogSearchResponse,
  searchCatalog,
} from './mcp/catalog-search.js';
import { createConversation, searchWebsites, updateCollection } from './rest-operations.js';
import type { CatalogQuery } from './schemas/catalog.js';
import type { Collection, CollectionUpdate } from './schemas/collections.js';
import type { Conversation, ConversationCreate } from './schemas/conversations.js';
import type { WebsiteSearchParams, WebsiteSearchResponse } from './schemas/websites.js';
import type { CatalogStore } from './store/catalog-store.js';

/** Website search (REST). */
export interface WebsitesApi {
  /**
   * Finds retail websites by retailer name or domain, ordered by relevance, with the best
   * commission rate in `country`. Input is checked first (query 1–200 characters, limit
   * 1–20, a known country); retried on connection errors, 408, 429 and 5xx.
   * @throws RequestValidationError, ConfigurationError, AuthenticationError,
   * PaymentRequiredError, ValidationError (unknown category), RateLimitError, ServerError.
   */
  search(params: WebsiteSearchParams, options?: RequestOptions): Promise<WebsiteSearchResponse>;
}

/** Collection update (REST). */
export interface CollectionsApi {
  /**
   * Renames a collection and/or adds, replaces or removes clauses; only the fields given
   * are sent. Not idempotent (`add_clauses`): it is resent only when it provably never
   * arrived (connection refused) or was refused with 429, so it is never applied twice.
   * After a TimeoutError or a ConnectionError with `requestSent: true` the outcome is
   * unknown: read the collection before trying again.
   */
  update(
    collectionId: string,
    body: CollectionUpdate,
    options?: RequestOptions,
  ): Promise<Collection>;
}

/** Catalog search (MCP `search_catalog`). */
export interface CatalogApi {
  /**
   * Searches products. Works without a key (anonymous tier: lower limits, buy links not
   * monetized); with one, `tier` is `token` and `variants[].url` links are monetized.
   * Buy links are returned byte-for-byte: never rewrite them.
   */
  search(catalog: CatalogQuery, options?: CatalogSearchOptions): Promise<CatalogSearchResponse>;
}

/** Conversations (REST). */
export interface ConversationsApi {
  /**
   * Creates a conversation and returns the service's record as an open object.
   *
   * Usage rules of the service: create one conversation per chat session and never poll
   * this endpoint; one token usually lasts a whole session (refresh it near expiry, never
   * per message); send turns only when the shopper types. Not idempotent: never resent
   * once it may have arrived.
   */
  create(body?: ConversationCreate, options?: RequestOptions): Promise<Conversation>;
}

const INSPECT = /* @__PURE__ */ Symbol.for('nodejs.util.inspect.custom');

/**
 * Typed client of the catalog service: website search, collection update, catalog search
 * (MCP) and conversations. Requests are validated before sending, answers parsed
 * leniently, failures thrown as CatalogError subclasses. The API key never appears in
 * errors, logs, `JSON.stringify(client)` or `util.inspect(client)`, and is never sent to
 * another origin.
 *
 * @example
 * const client = new CatalogClient({ apiKey: process.env.CATALOG_API_KEY, baseUrl, mcpUrl });
 * const { websites } = await client.websites.search({ query: 'nike', limit: 3 });
 */
export class CatalogClient {
  readonly #connection: ClientConnection;
  #lastRpcId = 0;

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
      search: (catalog, opts) => searchCatalog(connection, () => ++this.#lastRpcId, catalog, opts),
    };
    this.conversations = { create: (body, opts) => createConversation(connection, body, opts) };
    // util.inspect shows the configuration without the key. Set on the instance: a method
    // with a computed key (`[INSPECT]()`) would make bundlers keep the class, and everything
    // it imports, in a page that never uses it.
    Object.defineProperty(this, INSPECT, {
      value: () => `CatalogClient ${JSON.stringify(this.toJSON())}`,
    });
  }

  /**
   * The store this client shares state through (its `store` option, else a private
   * in-memory one): the rate-limit pause, and the update memory of tools built on it.
   */
  get store(): CatalogStore {
    return this.#connection.options.store;
  }

  /**
   * Ends the rate-limit pause this client's key and services share through the store (a
   * 429's `Retry-After`, at most an hour), for every instance sharing it: for an operator who
   * knows the limit is over, or that the pause came from a wrong `Retry-After`. The next call
   * is sent; if the limit still holds, its 429 pauses everyone again.
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
   * Low-level REST call for endpoints without a typed method (e.g. conversation tokens):
   * same base URL, credential handling, redirects policy, timeout and retries, but no
   * schema validation. `retry: 'once'` for anything not idempotent. A bearer token given in
   * `auth` is kept out of errors like the API key.
   */
  request(request: RestRequest, options?: RequestOptions): Promise<RestResponse> {
    return callRest(this.#connection, request, options);
  }

  /**
   * Replaces the key this client sends (in any letter case) with `[redacted]` in a string,
   * or deeply in an object's strings and member names: for text built from answers that may
   * echo it, such as what a model reads. The catalog tools use it.
   */
  redact<T>(value: T): T {
    return this.#connection.redact(value);
  }

  /**
   * The scope of this client's entries in its store: a digest of its REST base URL and API
   * key (never the key), so clients of other keys or services sharing the store never read
   * them. The tools key their update memory with it.
   */
  storeScope(): Promise<string> {
    return this.#connection.updateScope();
  }

  /** The configuration without the key, for logs and serialisation. */
  toJSON(): ClientSettings {
    return { ...this.#connection.toJSON() };
  }
}
