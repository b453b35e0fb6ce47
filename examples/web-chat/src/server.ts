/**
 * The web chat's server: the only place that holds the catalog API key.
 *
 * - `POST /api/chat` (flow 1, your own agent): runs `streamText` with the catalog tools and
 *   streams the answer to the page's `useChat`. `update_collection` waits for the shopper's
 *   Approve or Deny: signed so a page cannot forge an approval, sealed with a nonce and an
 *   expiry so one approval runs once, for one session and chat.
 * - `POST /api/conversation-token` (flow 2, the service's conversations): creates the
 *   conversation on the first call and mints a short-lived token for it; the page sends the
 *   turns to the service itself with that token. A conversation belongs to its session.
 * - Everything else: the page, built by Vite into `dist/`; its HTML carries the page's
 *   switches (commission shown or not, collection names) in a `<meta>` tag.
 *
 * Every API call must come from the page itself (same Origin, JSON), carries the shopper's
 * session cookie, is rate-limited per session and per address, and is checked whole before
 * anything runs: a malformed request gets 400 (or 413, 415) with the reason.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { createCatalogTools, resolveBuyLinksTransform } from '@catalogkit/ai-sdk';
import {
  CatalogClient,
  type CatalogClientOptions,
  type CatalogLogger,
  type CatalogStore,
  StoreUnavailableError,
} from '@catalogkit/core';
import { createHttpTokenMinter } from '@catalogkit/core/conversations';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { createUIMessageStreamResponse, type LanguageModel, stepCountIs, streamText } from 'ai';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { parseChatRequest, toModelMessages } from './chat-request.js';
import {
  ApprovalSeal,
  checkApprovals,
  MemoryUsedApprovals,
  StoreUsedApprovals,
  sealApprovalsInStream,
  type UsedApprovalStore,
} from './security/approvals.js';
import {
  type ConversationOwners,
  MemoryConversationOwners,
  StoreConversationOwners,
} from './security/conversation-owners.js';
import { isRecord } from './security/is-record.js';
import { isJsonRequest, readJsonBody } from './security/json-body.js';
import { type RateLimit, RateLimiter } from './security/rate-limit.js';
import { allowedOrigins, crossSiteReason } from './security/same-origin.js';
import { SESSION_COOKIE, Sessions } from './security/session.js';
import { type Limiter, StoreRateLimiter } from './security/store-rate-limit.js';

/** Rate limits of the API, each applied per session and per client address. */
export interface WebChatRateLimits {
  /** `POST /api/chat` (each runs the model and tools). */
  chat: { session: RateLimit; address: RateLimit };
  /** `POST /api/conversation-token`, any call (each mints a token with the key). */
  token: { session: RateLimit; address: RateLimit };
  /** Calls of it that create a conversation, in addition. */
  conversation: { session: RateLimit; address: RateLimit };
}

/** Defaults: ample for a shopper in a browser, far below a script's flood. */
export const DEFAULT_RATE_LIMITS: WebChatRateLimits = {
  chat: { session: { burst: 20, perMinute: 20 }, address: { burst: 60, perMinute: 60 } },
  token: { session: { burst: 20, perMinute: 10 }, address: { burst: 60, perMinute: 60 } },
  conversation: { session: { burst: 5, perMinute: 2 }, address: { burst: 20, perMinute: 10 } },
};

/** Options of {@link createWebChatApp}. */
export interface WebChatOptions {
  /** How the server reaches the catalog service: API key, REST and MCP addresses. */
  catalog: CatalogClientOptions & { baseUrl: string };
  /** The agent's model (flow 1). */
  model: LanguageModel;
  /** Folder of the built page (`vite build` output). */
  pageDir: string;
  /** Life asked for conversation tokens, in seconds (the service may grant less). */
  tokenTtlSeconds?: number;
  /** Signs approvals; default a random secret per process (set one when you run several). */
  approvalSecret?: string;
  /** Signs session cookies; default a random secret per process (set one when you run several). */
  sessionSecret?: string;
  /** How long an approval may wait for the shopper's answer, in seconds (default 900). */
  approvalTtlSeconds?: number;
  /**
   * The state several instances of this server must share, e.g. `createRedisStore(redis)`
   * from `@catalogkit/redis`: used approvals, which session owns each conversation and the
   * rate-limit buckets (keys under `webchat:`, each with a TTL; see the README), and the
   * catalog client's and tools' own (the update memory, the 429 pause). Default: the
   * memory of this process, right for one process only. With a store, also set
   * `approvalSecret` and `sessionSecret`, the same in every instance.
   */
  store?: CatalogStore;
  /**
   * Where used approvals are remembered (default: in `store` when given, else in this
   * process).
   */
  usedApprovals?: UsedApprovalStore;
  /** The wall clock approvals expire by, ms since the epoch (default `Date.now`; tests step it). */
  now?: () => number;
  /**
   * Origins the page is served from, e.g. `['https://shop.example']`; requests from any other
   * are refused. Default: the origin the request was addressed to (set this in production).
   */
  origins?: string[];
  /** The rate limits, each replacing its default. */
  rateLimits?: Partial<WebChatRateLimits>;
  /** The client's address for per-address limits (default the TCP peer; behind a proxy, read its header). */
  clientAddress?: (c: Context) => string;
  /** Largest `POST /api/chat` body in bytes (default 1 MiB). */
  maxChatBodyBytes?: number;
  /** Where failures are reported; never receives the key. */
  logger?: CatalogLogger;
  /**
   * How many created conversations the server remembers, oldest forgotten first (default
   * 10,000). In memory only: with a `store`, each is remembered for 12 hours instead.
   */
  maxConversations?: number;
  /**
   * Show each offer's commission on the product cards (and retailers' best rates): a
   * publisher's view. Default `false`: shoppers never see it. The tool results the page
   * receives carry it either way.
   */
  showCommission?: boolean;
  /**
   * The shopper's collections as your app knows them, so an approval reads "to Summer"
   * rather than "to col_summer" before any update has returned the name.
   */
  collections?: ReadonlyArray<{ id: string; name: string }>;
}

/** Every API answer is JSON; these are never cached. */
type Env = { Variables: { session: string } };

const INSTRUCTIONS = [
  'You are a shopping assistant. Use search_catalog to find products; the page shows each product',
  'as a card with its buy link, so answer in one or two short sentences and never repeat or edit links.',
  'When the shopper asks to save products, call update_collection with their product ids.',
  'If a tool fails or the shopper denies a change, say so plainly.',
].join(' ');

/** What the page is told when something fails: enough to act on, nothing internal. */
const SERVICE_UNAVAILABLE =
  'The shopping service is not answering right now. Try again in a moment.';

const TOKEN_BODY_BYTES = 4096;
const MAX_CONVERSATION_ID_CHARS = 200;
/**
 * What no conversation id holds: control characters, and lone UTF-16 surrogates (text no
 * store can keep exactly: a Redis store refuses it, which would otherwise be a 500).
 */
const NOT_IN_AN_ID = /[\p{Cc}\p{Cs}]/u;

/** A JSON refusal with its reason; never cached. */
function refuse(status: number, reason: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { error: reason },
    { status, headers: { 'cache-control': 'no-store', ...headers } },
  );
}

/** The Hono app: the two API routes and the built page. */
export function createWebChatApp(options: WebChatOptions): Hono<Env> {
  const app = new Hono<Env>();
  app.use('/api/*', sameOriginOnly(options), sessionCookie(options));
  app.post('/api/chat', agentChatRoute(options));
  app.post('/api/conversation-token', conversationTokenRoute(options));
  app.all('/api/*', () =>
    refuse(404, 'No such API route (POST /api/chat, POST /api/conversation-token).'),
  );
  app.onError((error) => {
    options.logger?.error?.('web chat request failed', { error: String(error) });
    if (error instanceof StoreUnavailableError) {
      return refuse(503, 'The server cannot reach its shared store; try again in a moment.');
    }
    return refuse(500, 'Something went wrong on the server.');
  });
  const page = pageHtml(options);
  app.get('/', page);
  app.get('/index.html', page);
  // serveStatic takes a root relative to the working directory.
  const root = relative(process.cwd(), options.pageDir) || '.';
  app.use('/*', serveStatic({ root }));
  app.get('*', page);
  return app;
}

/** What the page shows, for its `<meta>` tag: public, never a secret. */
function pageConfigJson(options: WebChatOptions): string {
  return JSON.stringify({
    showCommission: options.showCommission === true,
    collections: (options.collections ?? []).map(({ id, name }) => ({ id, name })),
  });
}

const escapeAttribute = (text: string): string =>
  text.replace(/[&"<>]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The built `index.html` with the page config in a `<meta>` tag (no inline script, so a
 * strict content security policy still works). Read per request: a rebuild needs no restart.
 */
function pageHtml(options: WebChatOptions) {
  const meta = `<meta name="catalogkit-page-config" content="${escapeAttribute(pageConfigJson(options))}" />`;
  return async (): Promise<Response> => {
    const html = await readFile(join(options.pageDir, 'index.html'), 'utf8');
    return new Response(html.replace('</head>', `    ${meta}\n  </head>`), {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
    });
  };
}

/**
 * CSRF: the API answers only its own page. A cross-site form or script cannot send JSON
 * without a CORS preflight this server never grants, and cannot forge `Origin` or
 * `Sec-Fetch-Site`; refused here, before a session, a body read or anything else.
 */
function sameOriginOnly(options: WebChatOptions): MiddlewareHandler<Env> {
  return async (c, next) => {
    const crossSite = crossSiteReason(c.req.raw, allowedOrigins(c.req.raw, options.origins));
    if (crossSite) return refuse(403, crossSite);
    if (c.req.method === 'POST' && !isJsonRequest(c.req.raw)) {
      return refuse(415, 'Send the body as Content-Type: application/json.');
    }
    await next();
  };
}

/** Gives every API caller a session (a signed, HttpOnly, SameSite=Strict cookie). */
function sessionCookie(options: WebChatOptions): MiddlewareHandler<Env> {
  const sessions = new Sessions(options.sessionSecret ?? randomBytes(32));
  return async (c, next) => {
    const known = sessions.read(getCookie(c, SESSION_COOKIE));
    const session = known ?? sessions.create();
    c.set('session', session);
    await next();
    if (known) return;
    const secure = new URL(c.req.url).protocol === 'https:';
    // A Response built by a route may have immutable headers: copy it to add the cookie.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.append('set-cookie', sessions.cookie(session, secure));
  };
}

function clientAddress(options: WebChatOptions, c: Context): string {
  if (options.clientAddress) return options.clientAddress(c);
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A limiter in the shared store when there is one (the limit then holds across instances). */
function limiter(options: WebChatOptions, name: string, limit: RateLimit): Limiter {
  return options.store ? new StoreRateLimiter(options.store, name, limit) : new RateLimiter(limit);
}

/** One limit per session and per address: the first that is exhausted answers 429. */
function limiterPair(
  options: WebChatOptions,
  name: keyof WebChatRateLimits,
  limit: { session: RateLimit; address: RateLimit },
) {
  const bySession = limiter(options, `${name}:session`, limit.session);
  const byAddress = limiter(options, `${name}:address`, limit.address);
  return async (session: string, address: string): Promise<Response | undefined> => {
    const wait = (await byAddress.take(address)) ?? (await bySession.take(session));
    if (wait === undefined) return undefined;
    return refuse(429, `Too many requests; try again in ${wait} s.`, {
      'retry-after': String(wait),
    });
  };
}

/** The catalog client's options, with the shared store when there is one. */
function catalogOptions(options: WebChatOptions): CatalogClientOptions {
  return options.store ? { ...options.catalog, store: options.store } : options.catalog;
}

function rateLimits(options: WebChatOptions): WebChatRateLimits {
  return { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
}

/** Flow 1: the agent, streamed to `useChat`. */
function agentChatRoute(options: WebChatOptions) {
  const tools = createCatalogTools({
    clientOptions: catalogOptions(options),
    defaults: { placements: ['affiliate'] },
  });
  const approvalSecret = options.approvalSecret ?? randomBytes(32).toString('base64');
  const seal = new ApprovalSeal(
    `${approvalSecret}\nwebchat-approval-seal`,
    (options.approvalTtlSeconds ?? 900) * 1000,
    options.now,
  );
  const store = usedApprovalStore(options);
  const limit = limiterPair(options, 'chat', rateLimits(options).chat);
  const limits = { maxMessages: 200, maxTextChars: 4000 };
  return async (c: Context<Env>) => {
    const session = c.get('session');
    const limited = await limit(session, clientAddress(options, c));
    if (limited) return limited;
    const body = await readJsonBody(c.req.raw, options.maxChatBodyBytes ?? 1024 * 1024);
    if (!body.ok) return refuse(body.status, body.reason);
    const request = await parseChatRequest(body.value, tools, limits);
    if (!request.ok) return refuse(400, request.reason);
    const { chatId } = request.value;
    const messages = await toModelMessages(request.value.messages, tools);
    if (!messages.ok) return refuse(400, messages.reason);
    // Approvals are checked on exactly what streamText gets, whatever the parts claimed.
    const onStoreError = (error: unknown) => {
      options.logger?.error?.('used-approval store failed', { error: String(error) });
    };
    const checked = await checkApprovals(messages.value, {
      seal,
      store,
      session,
      chatId,
      onStoreError,
    });
    if ('status' in checked) return refuse(checked.status, checked.reason);
    const result = streamText({
      model: options.model,
      instructions: INSTRUCTIONS,
      messages: checked.messages,
      tools,
      // The collection changes only after the shopper presses Approve in the page.
      toolApproval: { update_collection: 'user-approval' },
      experimental_toolApprovalSecret: approvalSecret,
      stopWhen: stepCountIs(6),
      // The model reads buy link references, never URLs (the default): one it writes becomes
      // the exact link of this turn's search_catalog results before the page gets the text.
      // Earlier turns' results come from the browser's history, which is not trusted, so a
      // reference to them stays as written (the page's cards carry those links).
      experimental_transform: resolveBuyLinksTransform(),
    });
    const stream = result.toUIMessageStream({
      onError: (error) => {
        options.logger?.error?.('agent chat failed', { error: String(error) });
        return SERVICE_UNAVAILABLE;
      },
    });
    return createUIMessageStreamResponse({
      stream: sealApprovalsInStream(stream, {
        seal,
        session,
        chatId,
        sealed: checked.sealed,
        store,
        onStoreError,
      }),
      headers: { 'cache-control': 'no-store' },
    });
  };
}

function usedApprovalStore(options: WebChatOptions): UsedApprovalStore {
  if (options.usedApprovals) return options.usedApprovals;
  if (options.store) return new StoreUsedApprovals(options.store);
  return new MemoryUsedApprovals({ now: options.now });
}

/** The conversation a token request names, or why the body is refused. */
function askedConversation(body: unknown): { id: string | undefined } | { reason: string } {
  if (!isRecord(body)) return { reason: 'Send a JSON object: {} or { conversationId }.' };
  const unknown = Object.keys(body).filter((name) => name !== 'conversationId');
  if (unknown.length > 0) return { reason: `Unknown fields: ${unknown.slice(0, 5).join(', ')}.` };
  const { conversationId } = body;
  if (conversationId === undefined) return { id: undefined };
  if (
    typeof conversationId !== 'string' ||
    conversationId.length === 0 ||
    conversationId.length > MAX_CONVERSATION_ID_CHARS ||
    NOT_IN_AN_ID.test(conversationId)
  ) {
    return {
      reason: `conversationId: a string of 1 to ${MAX_CONVERSATION_ID_CHARS} characters, without control characters or lone surrogates.`,
    };
  }
  return { id: conversationId };
}

/**
 * Flow 2: one endpoint that creates the conversation (first call, no `conversationId`)
 * and mints a token for it. The key stays here; the page gets core's `MintedToken`: the
 * token, its expiry, the service's own time and the life asked for (so a browser with a
 * wrong clock still refreshes in time). A conversation belongs to the session that created
 * it: any other session is told it does not exist.
 */
function conversationTokenRoute(options: WebChatOptions) {
  const client = new CatalogClient(catalogOptions(options));
  // Conversations this server created, and whose they are; bounded so that callers cannot
  // grow it without end. A real app keeps them with the signed-in shopper.
  const owners: ConversationOwners = options.store
    ? new StoreConversationOwners(options.store)
    : new MemoryConversationOwners(options.maxConversations ?? 10_000);
  const limits = rateLimits(options);
  const limitTokens = limiterPair(options, 'token', limits.token);
  const limitConversations = limiterPair(options, 'conversation', limits.conversation);
  return async (c: Context<Env>) => {
    const session = c.get('session');
    const address = clientAddress(options, c);
    const limited = await limitTokens(session, address);
    if (limited) return limited;
    const body = await readJsonBody(c.req.raw, TOKEN_BODY_BYTES);
    if (!body.ok) return refuse(body.status, body.reason);
    const asked = askedConversation(body.value);
    if ('reason' in asked) return refuse(400, asked.reason);
    if (asked.id !== undefined && (await owners.ownerOf(asked.id)) !== session) {
      return refuse(404, 'Unknown conversation.');
    }
    if (asked.id === undefined) {
      const tooMany = await limitConversations(session, address);
      if (tooMany) return tooMany;
    }
    try {
      const conversationId = asked.id ?? (await createConversation(client));
      await owners.remember(conversationId, session);
      const mint = createHttpTokenMinter({
        client,
        conversationId,
        ...(options.tokenTtlSeconds ? { ttlSeconds: options.tokenTtlSeconds } : {}),
      });
      const minted = await mint({ signal: AbortSignal.timeout(15_000) });
      return Response.json(
        { conversationId, serviceUrl: options.catalog.baseUrl, minted },
        { headers: { 'cache-control': 'no-store' } },
      );
    } catch (error) {
      // The shared store out of reach is not the service's fault: app.onError says so.
      if (error instanceof StoreUnavailableError) throw error;
      options.logger?.error?.('conversation token failed', { error: String(error) });
      return refuse(502, SERVICE_UNAVAILABLE);
    }
  };
}

async function createConversation(client: CatalogClient): Promise<string> {
  const { conversation_id: id } = await client.conversations.create({});
  if (typeof id !== 'string') throw new Error('The service answered without a conversation_id.');
  return id;
}

/** A running web chat server. */
export interface RunningWebChat {
  /** The page's address, e.g. `http://127.0.0.1:3000/`. */
  url: string;
  close(): Promise<void>;
}

/** Serves the app on Node (loopback by default; port 0 picks a free one). */
export async function startWebChat(
  options: WebChatOptions & { port?: number; host?: string },
): Promise<RunningWebChat> {
  const { port = 0, host = '127.0.0.1' } = options;
  // Filled once the port is known: requests are checked against the server's own address.
  const ownOrigins: string[] = [];
  const wildcard = host === '0.0.0.0' || host === '::';
  const app = createWebChatApp({
    ...options,
    origins: options.origins ?? (wildcard ? undefined : ownOrigins),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  ownOrigins.push(`http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`);
  if (host === '127.0.0.1') ownOrigins.push(`http://localhost:${actualPort}`);
  return {
    url: `http://${host}:${actualPort}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
