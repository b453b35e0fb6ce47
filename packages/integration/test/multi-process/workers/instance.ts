/**
 * One application instance for the multi-process suite: its own CatalogClient, tools and
 * chat sessions, sharing nothing with the others but the Redis store (and the service).
 *
 * Long-lived (`fork(instance.ts)`): connects, sends `{ ready: true }`, then runs every task
 * it is sent (`{ id, task }`) and answers `{ id, result }`, several at a time, as a server
 * would. One-shot (`fork(instance.ts, [task JSON])`): runs that one task, answers and exits,
 * as a serverless invocation does.
 *
 * Configuration comes from the environment (REDIS_URL, API_KEY, APPROVAL_SECRET) and from
 * each task (the service's REST base).
 */

import {
  type AnyCatalogTool,
  CatalogClient,
  type CatalogStore,
  createCatalogToolList,
  StoreUnavailableError,
} from '@catalogkit/core';
import {
  ChatSession,
  createHttpTokenMinter,
  createTurnSender,
} from '@catalogkit/core/conversations';
import { createRedisStore } from '@catalogkit/redis';
import { Redis } from 'ioredis';
// The web chat's approval store (examples/web-chat), as its instances use it.
import {
  type ApprovalBinding,
  ApprovalSeal,
  StoreUsedApprovals,
} from '../../../../../examples/web-chat/src/security/approvals.js';
import type { InstanceResult, InstanceTask, TaskError } from '../support/tasks.js';

const { REDIS_URL = '', API_KEY = '', APPROVAL_SECRET = '', STORE_TIMEOUT_MS } = process.env;

// No offline queue: while Redis is down a command fails at once (the store turns that into
// a StoreUnavailableError naming itself) instead of waiting for the reconnection.
const redis = new Redis(REDIS_URL, {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: () => 50,
  lazyConnect: true,
});
// Connection losses are expected (the suite restarts redis-server): the store reports them.
redis.on('error', () => undefined);
const store: CatalogStore = createRedisStore(
  redis,
  STORE_TIMEOUT_MS ? { timeoutMs: Number(STORE_TIMEOUT_MS) } : {},
);

function describeError(error: unknown): TaskError {
  const shape = (error ?? {}) as Record<string, unknown>;
  return {
    name: error instanceof Error ? error.name : 'Error',
    code: typeof shape.code === 'string' ? shape.code : undefined,
    message: error instanceof Error ? error.message : String(error),
    outcomeUnknown: shape.outcomeUnknown === true,
    ...(StoreUnavailableError.is(error) ? { store: error.store } : {}),
  };
}

function client(
  baseUrl: string,
  timeoutMs: number,
  fault?: string,
  maxRetries = 2,
  apiKey = API_KEY,
  clientStore = store,
): CatalogClient {
  return new CatalogClient({
    apiKey,
    baseUrl,
    timeoutMs,
    maxRetries,
    store: clientStore,
    // The fault proxy reads which fault to inject on this call.
    headers: fault ? { 'x-fault': fault } : {},
  });
}

/**
 * The store, but the first write-ahead record of a collection change is reported failed at
 * once while its `SET NX` still reaches Redis 50 ms later (what a client's time limit does to
 * a command already on its way).
 */
function lateClaimStore(): CatalogStore {
  let late = true;
  return {
    name: store.name ?? 'store',
    get: (key) => store.get(key),
    set: (key, value, ttlMs) => store.set(key, value, ttlMs),
    async setIfAbsent(key, value, ttlMs) {
      if (!late || !key.startsWith('catalogkit:guard:'))
        return store.setIfAbsent(key, value, ttlMs);
      late = false;
      setTimeout(() => void store.setIfAbsent(key, value, ttlMs).catch(() => undefined), 50);
      throw new StoreUnavailableError(store.name ?? 'store', 'SET NX failed: no answer in time');
    },
    delete: (key) => store.delete(key),
    deleteIfEquals: (key, value) => store.deleteIfEquals(key, value),
    lock: (key, options) => store.lock(key, options),
  };
}

async function update(task: Extract<InstanceTask, { kind: 'update' }>): Promise<unknown> {
  // A tool set per call, as a serverless handler builds it per request: only the store is shared.
  const [tool] = createCatalogToolList({
    client: client(
      task.baseUrl,
      task.timeoutMs,
      task.fault,
      2,
      task.apiKey,
      task.lateClaim ? lateClaimStore() : store,
    ),
    include: ['update_collection'],
  }) as AnyCatalogTool[];
  // Every answer is of a change sent now: nothing is answered from memory.
  await tool?.execute(task.input as never);
  return { sent: true };
}

/** One session's token, through a ChatSession of this instance's own. */
async function sessionToken(
  task: Extract<InstanceTask, { kind: 'tokens' }>,
  sessionId: string,
): Promise<unknown> {
  const service = client(task.baseUrl, 10_000);
  const session = new ChatSession({
    sessionId,
    store,
    createConversation: ({ signal }) => service.conversations.create({}, { signal }),
    mintToken: ({ conversationId, signal }) =>
      createHttpTokenMinter({ client: service, conversationId, ttlSeconds: 60 })({ signal }),
    sendTurn: createTurnSender({ client: service }),
    tokenOptions: { refreshMarginMs: task.refreshMarginMs ?? 60_000 },
  });
  try {
    const token = await session.getToken();
    // When it was handed out: the suite checks the service still held it valid then.
    return { sessionId, token, handedOutAt: Date.now() };
  } finally {
    session.close();
  }
}

/** Every session's outcome, each on its own (one failing does not hide the others). */
async function tokens(task: Extract<InstanceTask, { kind: 'tokens' }>): Promise<unknown> {
  return Promise.all(
    task.sessionIds.map((sessionId) =>
      sessionToken(task, sessionId).then(
        (value) => ({ ok: true, ...(value as object) }),
        (error: unknown) => ({ ok: false, sessionId, error: describeError(error) }),
      ),
    ),
  );
}

/** Search clients by their settings: a process keeps its client, and what it learnt. */
const searchClients = new Map<string, CatalogClient>();

async function search(task: Extract<InstanceTask, { kind: 'search' }>): Promise<unknown> {
  const settings = `${task.baseUrl} ${task.timeoutMs} ${task.maxRetries}`;
  let searcher = searchClients.get(settings);
  if (searcher === undefined) {
    searcher = client(task.baseUrl, task.timeoutMs, undefined, task.maxRetries);
    searchClients.set(settings, searcher);
  }
  const found = await searcher.websites.search({ query: task.query, limit: 1 });
  return { websites: found.websites.length };
}

async function approval(task: Extract<InstanceTask, { kind: 'approval' }>): Promise<unknown> {
  const seal = new ApprovalSeal(APPROVAL_SECRET, 15 * 60_000);
  const binding: ApprovalBinding = task.binding;
  const opened = seal.open(task.sealed, binding);
  if (opened === undefined || seal.expired(opened)) return { verdict: 'refused' };
  return { verdict: await new StoreUsedApprovals(store).markUsed(opened.nonce) };
}

async function issueApproval(
  task: Extract<InstanceTask, { kind: 'issueApproval' }>,
): Promise<unknown> {
  await new StoreUsedApprovals(store).issue(task.nonce, task.ttlMs);
  return { issued: true };
}

async function clearPause(task: Extract<InstanceTask, { kind: 'clearPause' }>): Promise<unknown> {
  await client(task.baseUrl, 5_000).clearRateLimitPause();
  return { cleared: true };
}

/** The task's handler. */
function handlerOf(task: InstanceTask): () => Promise<unknown> {
  switch (task.kind) {
    case 'update':
      return () => update(task);
    case 'tokens':
      return () => tokens(task);
    case 'search':
      return () => search(task);
    case 'approval':
      return () => approval(task);
    case 'issueApproval':
      return () => issueApproval(task);
    case 'clearPause':
      return () => clearPause(task);
  }
}

async function run(task: InstanceTask): Promise<InstanceResult> {
  const startedAt = Date.now();
  try {
    const value = await handlerOf(task)();
    return { ok: true, value, startedAt, endedAt: Date.now(), pid: process.pid };
  } catch (error) {
    return {
      ok: false,
      error: describeError(error),
      startedAt,
      endedAt: Date.now(),
      pid: process.pid,
    };
  }
}

function answer(message: unknown): Promise<void> {
  return new Promise((resolve) => process.send?.(message, () => resolve()));
}

await redis.connect();
const once = process.argv[2];
if (once !== undefined) {
  await answer({ id: 0, result: await run(JSON.parse(once) as InstanceTask) });
  redis.disconnect();
  process.disconnect?.();
} else {
  process.on('message', (message: { id: number; task: InstanceTask } | 'exit') => {
    if (message === 'exit') {
      redis.disconnect();
      process.disconnect?.();
      return;
    }
    void run(message.task).then((result) => answer({ id: message.id, result }));
  });
  await answer({ ready: true });
}
