/**
 * The web chat's server: the only place that holds the catalog API key.
 *
 * - `POST /api/chat` (flow 1, your own agent): runs `streamText` with the catalog tools and
 *   streams the answer to the page's `useChat`. `update_collection` waits for the shopper's
 *   Approve or Deny, signed so a page cannot forge an approval.
 * - `POST /api/conversation-token` (flow 2, the service's conversations): creates the
 *   conversation on the first call and mints a short-lived token for it; the page sends the
 *   turns to the service itself with that token.
 * - Everything else: the page, built by Vite into `dist/`.
 */
import { randomBytes } from 'node:crypto';
import { relative } from 'node:path';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import {
  CatalogClient,
  type CatalogClientOptions,
  type CatalogLogger,
  createHttpTokenMinter,
} from '@catalogkit/core';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import {
  convertToModelMessages,
  type LanguageModel,
  stepCountIs,
  streamText,
  type UIMessage,
} from 'ai';
import { type Context, Hono } from 'hono';

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
  /** Where failures are reported; never receives the key. */
  logger?: CatalogLogger;
  /** How many created conversations the server remembers, oldest forgotten first (default 10,000). */
  maxConversations?: number;
}

const INSTRUCTIONS = [
  'You are a shopping assistant. Use search_catalog to find products; the page shows each product',
  'as a card with its buy link, so answer in one or two short sentences and never repeat or edit links.',
  'When the shopper asks to save products, call update_collection with their product ids.',
  'If a tool fails or the shopper denies a change, say so plainly.',
].join(' ');

/** What the page is told when something fails: enough to act on, nothing internal. */
const SERVICE_UNAVAILABLE =
  'The shopping service is not answering right now. Try again in a moment.';

/** The Hono app: the two API routes and the built page. */
export function createWebChatApp(options: WebChatOptions): Hono {
  const app = new Hono();
  app.post('/api/chat', agentChatRoute(options));
  app.post('/api/conversation-token', conversationTokenRoute(options));
  // serveStatic takes a root relative to the working directory.
  const root = relative(process.cwd(), options.pageDir) || '.';
  app.use('/*', serveStatic({ root }));
  app.get('*', serveStatic({ root, path: 'index.html' }));
  return app;
}

/** Flow 1: the agent, streamed to `useChat`. */
function agentChatRoute(options: WebChatOptions) {
  const tools = createCatalogTools({
    clientOptions: options.catalog,
    defaults: { placements: ['affiliate'] },
  });
  const approvalSecret = options.approvalSecret ?? randomBytes(32).toString('base64');
  return async (c: Context) => {
    const body = (await c.req.json().catch(() => undefined)) as { messages?: unknown } | undefined;
    if (!Array.isArray(body?.messages)) {
      return Response.json({ error: 'Send { messages: UIMessage[] }.' }, { status: 400 });
    }
    const result = streamText({
      model: options.model,
      instructions: INSTRUCTIONS,
      messages: await convertToModelMessages(body.messages as UIMessage[], { tools }),
      tools,
      // The collection changes only after the shopper presses Approve in the page.
      toolApproval: { update_collection: 'user-approval' },
      experimental_toolApprovalSecret: approvalSecret,
      stopWhen: stepCountIs(6),
    });
    return result.toUIMessageStreamResponse({
      onError: (error) => {
        options.logger?.error?.('agent chat failed', { error: String(error) });
        return SERVICE_UNAVAILABLE;
      },
    });
  };
}

/**
 * Flow 2: one endpoint that creates the conversation (first call, no `conversationId`)
 * and mints a token for it. The key stays here; the page gets core's `MintedToken`: the
 * token, its expiry, the service's own time and the life asked for (so a browser with a
 * wrong clock still refreshes in time).
 */
function conversationTokenRoute(options: WebChatOptions) {
  const client = new CatalogClient(options.catalog);
  // Conversations this server created, bounded so that callers cannot grow it without end.
  // A real app ties each one to the signed-in shopper.
  const ours = new Set<string>();
  const maxConversations = options.maxConversations ?? 10_000;
  return async (c: Context) => {
    const body = (await c.req.json().catch(() => ({}))) as { conversationId?: unknown };
    const asked = typeof body?.conversationId === 'string' ? body.conversationId : undefined;
    if (asked !== undefined && !ours.has(asked)) {
      return Response.json({ error: 'Unknown conversation.' }, { status: 404 });
    }
    try {
      const conversationId = asked ?? (await createConversation(client));
      remember(ours, conversationId, maxConversations);
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
      options.logger?.error?.('conversation token failed', { error: String(error) });
      return Response.json({ error: SERVICE_UNAVAILABLE }, { status: 502 });
    }
  };
}

/** Adds `id` as the newest entry; past `max` entries, the oldest is forgotten. */
function remember(ids: Set<string>, id: string, max: number): void {
  ids.delete(id);
  ids.add(id);
  const oldest = ids.values().next().value;
  if (ids.size > max && oldest !== undefined) ids.delete(oldest);
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
  const app = createWebChatApp(options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
