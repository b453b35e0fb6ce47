import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { EmulatorContext } from './context.js';
import type { CatalogData } from './data/index.js';
import { MEDIA_PREFIX } from './data/media-path.js';
import type { FaultController } from './faults.js';
import { guard } from './guard.js';
import { mcpMethodNotAllowed, mcpPostHandler, mcpRouteNames } from './mcp/route.js';
import { productImageHandler } from './media.js';
import type { EmulatorKeys, EmulatorOptions, RateLimits } from './options.js';
import type { PaymentDesk } from './payment/desk.js';
import { type RestVariables, restAuth } from './rest/auth.js';
import { collectionUpdateHandler } from './rest/collections.js';
import { createConversationHandler, mintTokenHandler, turnHandler } from './rest/conversations.js';
import { websiteSearchHandler } from './rest/websites.js';
import type { EmulatorState } from './state.js';
import type { RequestStats } from './stats.js';

/** Path prefix of the REST interface (`{base_url}`). */
export const REST_PREFIX = '/api';
/** Path prefix of the MCP interface (`{mcp_url}`; the endpoint is `/ucp/mcp`). */
export const MCP_PREFIX = '/ucp';

/** What tests and embedders can inspect or switch on one emulator instance. */
export interface EmulatorHandles {
  /** The keys in effect (the demo keys unless replaced). */
  keys: EmulatorKeys;
  /** What the service holds now: collections, conversations, tokens. */
  state: EmulatorState;
  /** Requests received per route. */
  stats: RequestStats;
  /** Fault injection, off until set. */
  faults: FaultController;
  /** The daily limits in effect. */
  rateLimits: RateLimits;
  /** The generated catalog (read-only, shared by instances with the same seed). */
  data: CatalogData;
  /** Machine payments: `accepted` lists every payment the emulator took. */
  payments: PaymentDesk;
}

/** The Hono app with its instance handles. */
export type EmulatorApp = Hono & { emulator: EmulatorHandles };

function restApp(emulator: EmulatorContext): Hono<{ Variables: RestVariables }> {
  const rest = new Hono<{ Variables: RestVariables }>();
  const named = (route: string) => guard(emulator, () => [route]);
  const auth = restAuth(emulator);
  // The Date header follows the injected clock: token clients compare it with expires_at.
  rest.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Date', emulator.now().toUTCString());
  });
  rest.get(
    '/v1/websites/search',
    named('GET /v1/websites/search'),
    auth,
    websiteSearchHandler(emulator),
  );
  rest.patch(
    '/v1/collections/:collection_id',
    named('PATCH /v1/collections/:collection_id'),
    auth,
    collectionUpdateHandler(emulator),
  );
  rest.post(
    '/v1/conversations',
    named('POST /v1/conversations'),
    auth,
    createConversationHandler(emulator),
  );
  rest.post(
    '/v1/conversations/:conversation_id/tokens',
    named('POST /v1/conversations/:conversation_id/tokens'),
    auth,
    mintTokenHandler(emulator),
  );
  // Turns authenticate with the conversation token, not the API key, and come from
  // shoppers' browsers on other origins: CORS allows them (no cookies, so any origin).
  rest.use(
    '/v1/conversations/:conversation_id/turns',
    cors({ origin: '*', allowMethods: ['POST'] }),
  );
  rest.post(
    '/v1/conversations/:conversation_id/turns',
    named('POST /v1/conversations/:conversation_id/turns'),
    turnHandler(emulator),
  );
  return rest;
}

function mcpApp(emulator: EmulatorContext): Hono {
  const mcp = new Hono();
  mcp.post('/mcp', guard(emulator, mcpRouteNames), mcpPostHandler(emulator));
  mcp.on(['GET', 'DELETE'], '/mcp', mcpMethodNotAllowed(emulator));
  return mcp;
}

/**
 * The emulator as a Hono app, for embedding in another server or calling `app.fetch`
 * directly. REST is under `/api`, MCP at `/ucp/mcp`. Dropped connections and truncated
 * bodies need @hono/node-server (as `startEmulator` uses).
 */
export function createEmulator(options: EmulatorOptions = {}): EmulatorApp {
  const emulator = new EmulatorContext(options);
  const app = new Hono();
  app.route(REST_PREFIX, restApp(emulator));
  app.route(MCP_PREFIX, mcpApp(emulator));
  // Product images (placeholders), public like a CDN: no key, no quota.
  app.get(`${MEDIA_PREFIX}/:file`, productImageHandler(emulator.data));
  app.get('/', (c) =>
    c.json({ service: 'catalogkit-emulator', rest: REST_PREFIX, mcp: `${MCP_PREFIX}/mcp` }),
  );
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404));
  // The contract's 500 body; the cause stays out of the answer.
  app.onError((_error, c) => c.json({ detail: 'Internal server error' }, 500));
  const { keys, state, stats, faults, rateLimits, data, payments } = emulator;
  return Object.assign(app, {
    emulator: { keys, state, stats, faults, rateLimits, data, payments },
  });
}
