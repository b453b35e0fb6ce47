/**
 * `pnpm chat`: serves the built page and the two API routes. Offline by default (the
 * emulator in this process, the scripted model); the real service with CATALOG_API_KEY,
 * CATALOG_BASE_URL and CATALOG_MCP_URL, and an OpenAI model with OPENAI_API_KEY.
 * SHOW_COMMISSION=1 shows commissions on the cards (a publisher's view).
 * WEBCHAT_TRACE_CONSOLE=1 prints the catalog client's OpenTelemetry spans to the console.
 *
 * Shared state: with REDIS_URL, used approvals, conversation owners and rate limits live in
 * Redis (set WEBCHAT_APPROVAL_SECRET and WEBCHAT_SESSION_SECRET, the same in every process).
 * `pnpm chat --instances 2` runs two instance processes sharing one Redis (REDIS_URL, or a
 * redis-server started here) behind a round-robin proxy on PORT.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type ChosenCatalog, chooseCatalog, chooseModel } from './dev/choose.js';
import { consoleTraces } from './dev/console-traces.js';
import { startInstances } from './dev/instances.js';
import { connectRedisStore, redisLabel } from './dev/shared-store.js';
import { startWebChat } from './server.js';

const env = process.env;
const PAGE_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const PORT = Number(env.PORT ?? 3000);
const SHOW_COMMISSION = env.SHOW_COMMISSION === '1' || env.SHOW_COMMISSION === 'true';

/** What was started, for the banner, and how to stop it. */
interface Started {
  url: string;
  model: string;
  shared: string;
  close(): Promise<void>;
}

function instanceCount(): number {
  const { values } = parseArgs({
    options: { instances: { type: 'string', default: '1' } },
    allowPositionals: true,
  });
  const count = Number(values.instances);
  if (!Number.isInteger(count) || count < 1 || count > 8) {
    throw new Error(`--instances: a whole number from 1 to 8 (got ${values.instances})`);
  }
  return count;
}

async function startOne(catalog: ChosenCatalog): Promise<Started> {
  const shared = env.REDIS_URL ? await connectRedisStore(env.REDIS_URL, console) : undefined;
  const chosen = chooseModel();
  const chat = await startWebChat({
    catalog: { ...catalog.catalog, ...consoleTraces(env) },
    model: chosen.model,
    pageDir: PAGE_DIR,
    port: PORT,
    logger: console,
    showCommission: SHOW_COMMISSION,
    collections: catalog.collections,
    ...(shared ? { store: shared.store } : {}),
    ...(env.WEBCHAT_APPROVAL_SECRET ? { approvalSecret: env.WEBCHAT_APPROVAL_SECRET } : {}),
    ...(env.WEBCHAT_SESSION_SECRET ? { sessionSecret: env.WEBCHAT_SESSION_SECRET } : {}),
  });
  return {
    url: chat.url,
    model: chosen.label,
    shared: env.REDIS_URL
      ? redisLabel(env.REDIS_URL)
      : 'memory of this process (set REDIS_URL, or run --instances 2)',
    close: async () => {
      await chat.close();
      await shared?.close();
    },
  };
}

async function startMany(catalog: ChosenCatalog, count: number): Promise<Started> {
  const running = await startInstances({
    count,
    catalog: catalog.catalog,
    pageDir: PAGE_DIR,
    redisUrl: env.REDIS_URL,
    port: PORT,
    approvalSecret: env.WEBCHAT_APPROVAL_SECRET,
    sessionSecret: env.WEBCHAT_SESSION_SECRET,
    settings: { showCommission: SHOW_COMMISSION, collections: catalog.collections },
  });
  const redis = redisLabel(running.redis.url);
  const instances = running.instances.map((instance) => instance.url).join(', ');
  return {
    url: running.url,
    model: `${chooseModel().label} (in each instance)`,
    shared: [
      running.redis.spawned
        ? `redis-server started at ${redis} (set REDIS_URL to use yours)`
        : redis,
      `  instances: ${count} processes, round robin behind the URL above (${instances})`,
    ].join('\n'),
    close: running.close,
  };
}

/** Starts everything; a start that fails closes what it had started, the catalog included. */
async function start(count: number): Promise<{ catalog: ChosenCatalog; started: Started }> {
  const catalog = await chooseCatalog();
  try {
    return { catalog, started: await (count > 1 ? startMany(catalog, count) : startOne(catalog)) };
  } catch (error) {
    await catalog.close();
    throw error;
  }
}

const starting = start(instanceCount());
// Listening before the start completes: Ctrl+C while instances start still stops them and
// the redis-server started for them (a process ended by a signal runs no exit handler).
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void starting
    .then(({ catalog, started }) => Promise.all([started.close(), catalog.close()]))
    .catch(() => undefined)
    .finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
const { catalog, started } = await starting;
process.stdout.write(
  [
    'catalogkit web chat',
    `  open:    ${started.url}`,
    `  catalog: ${catalog.label}`,
    `  model:   ${started.model}`,
    `  shared:  ${started.shared}`,
    '  Ctrl+C stops it.',
    '',
  ].join('\n'),
);
