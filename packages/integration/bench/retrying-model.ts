/*
 * A model that always retries, driven through the AI SDK's generateText against the emulator
 * with a fault on the first attempt of every collection update: the connection dropped after
 * the change was applied, a 500 sent after applying it (through a loopback proxy), an answer
 * cut in half, or a timeout while the service applies the change late. The model then repeats
 * the identical call twice, whatever it was told. Counts what the service holds at the end.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { runScriptedModel } from '../test/agent-tools/scripted-model.js';

/** The faults, in turn; one update in `TIMEOUT_EVERY` times out instead (each costs a wait). */
const FAULTS = ['drop after applying', '500 after applying', 'answer cut in half'] as const;
type Fault = (typeof FAULTS)[number] | 'timeout, applied late';
const TIMEOUT_EVERY = 20;
const CLIENT_TIMEOUT_MS = 400;
const ROUTE = 'PATCH /v1/collections/:collection_id';
const COLLECTION_ID = 'col_summer';

/** What one run found. */
export interface RetryingModelReport {
  updates: number;
  faults: Record<Fault, number>;
  /** Tool calls the model made (first attempts and its repeats). */
  toolCalls: number;
  /** Update requests that reached the service. */
  requestsSent: number;
  /** Updates the service holds once (as clauses), and those it holds more than once. */
  appliedOnce: number;
  appliedTwice: number;
  /** What the model read after its first attempt: "outcome is unknown", or an invitation to retry. */
  toldOutcomeUnknown: number;
  toldToRetry: number;
  /** Repeats answered without sending: while the outcome was unknown, or after a success. */
  repeatsNotSent: number;
}

/** A loopback proxy to the emulator that can answer 500 after the emulator applied a PATCH. */
class FaultyProxy {
  fail500Next = false;
  #server: Server | undefined;

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    this.#server = createServer((request, response) => void this.#forward(request, response));
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async #forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') {
        headers.set(name, value);
      }
    }
    const fail = request.method === 'PATCH' && this.fail500Next;
    if (fail) this.fail500Next = false;
    try {
      const answer = await fetch(`${this.target}${request.url}`, {
        method: request.method,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (fail) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end('{"detail":"Internal server error"}');
        return;
      }
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? '',
      });
      response.end(body);
    } catch {
      // The emulator dropped or cut the answer: pass that on as a dropped connection.
      response.socket?.destroy();
    }
  }

  close(): Promise<void> {
    this.#server?.closeAllConnections();
    return new Promise((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }
}

function faultFor(index: number): Fault {
  if (index % TIMEOUT_EVERY === TIMEOUT_EVERY - 1) return 'timeout, applied late';
  return FAULTS[index % FAULTS.length] as Fault;
}

function arm(fault: Fault, emulator: RunningEmulator, proxy: FaultyProxy): void {
  if (fault === 'drop after applying') {
    emulator.faults.set({ routes: [ROUTE], drop: 'after', times: 1 });
  } else if (fault === 'answer cut in half') {
    emulator.faults.set({ routes: [ROUTE], truncate: true, times: 1 });
  } else if (fault === 'timeout, applied late') {
    emulator.faults.set({ routes: [ROUTE], latencyMs: CLIENT_TIMEOUT_MS * 2, times: 1 });
  } else {
    emulator.faults.clear();
    proxy.fail500Next = true;
  }
}

const productOf = (index: number) => `prod_retry_${index}`;
/**
 * One collection per update: the write-ahead guard refuses every add to a collection while one
 * of its changes has an unknown outcome (for ten minutes), so each faulted update gets its own.
 */
const collectionOf = (index: number) => `col_retry_${index}`;

function seedCollections(emulator: RunningEmulator, updates: number): void {
  const template = emulator.state.collections.get(COLLECTION_ID);
  if (!template) throw new Error(`the emulator has no ${COLLECTION_ID}`);
  for (let index = 0; index < updates; index += 1) {
    const collection_id = collectionOf(index);
    emulator.state.collections.set(collection_id, {
      ...structuredClone(template),
      collection_id,
      clauses: [],
    });
  }
}

/** How many times the service holds each update's clause, for the updates held at all. */
function countCopies(emulator: RunningEmulator, updates: number): number[] {
  const counts: number[] = [];
  for (let index = 0; index < updates; index += 1) {
    const clauses = emulator.state.collections.get(collectionOf(index))?.clauses ?? [];
    const product = productOf(index);
    const count = clauses.filter((clause) => clause.product_ids.includes(product)).length;
    if (count > 0) counts.push(count);
  }
  return counts;
}

async function waitFor(done: () => boolean, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Runs `updates` faulted updates, each in its own generateText run, with one tool set. */
export async function runRetryingModel(updates = 300): Promise<RetryingModelReport> {
  const emulator = await startEmulator({ port: 0 });
  const proxy = new FaultyProxy(new URL(emulator.baseUrl).origin);
  const report: RetryingModelReport = {
    updates,
    faults: {
      'drop after applying': 0,
      '500 after applying': 0,
      'answer cut in half': 0,
      'timeout, applied late': 0,
    },
    toolCalls: 0,
    requestsSent: 0,
    appliedOnce: 0,
    appliedTwice: 0,
    toldOutcomeUnknown: 0,
    toldToRetry: 0,
    repeatsNotSent: 0,
  };
  try {
    const origin = await proxy.start();
    const tools = createCatalogTools({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: `${origin}${new URL(emulator.baseUrl).pathname}`,
        mcpUrl: emulator.mcpUrl,
        timeoutMs: CLIENT_TIMEOUT_MS,
      },
      include: ['update_collection'],
      needsApproval: false,
    });
    seedCollections(emulator, updates);
    const sentBefore = emulator.stats.count(ROUTE);
    for (let index = 0; index < updates; index += 1) {
      const fault = faultFor(index);
      report.faults[fault] += 1;
      arm(fault, emulator, proxy);
      const call = {
        toolName: 'update_collection',
        input: {
          collection_id: collectionOf(index),
          add_clauses: [{ product_ids: [productOf(index)] }],
        },
      };
      const { prompts } = await runScriptedModel({
        tools,
        prompt: `Add product ${productOf(index)} to my Summer collection.`,
        // Always retries: the identical call after every answer, three calls in all.
        next: (_seen, step) => (step < 3 ? [call] : []),
      });
      emulator.faults.clear();
      const seen = (prompts.at(-1) ?? []).flatMap((message) =>
        message.role === 'tool' ? (message.content as Array<{ output: { value: unknown } }>) : [],
      );
      const texts = seen.map((part) => String(part.output.value));
      report.toolCalls += texts.length;
      if (texts[0]?.includes('outcome is unknown')) report.toldOutcomeUnknown += 1;
      if (texts[0] && /try (once )?(more|again)/i.test(texts[0])) report.toldToRetry += 1;
      report.repeatsNotSent += texts.slice(1).filter((text) => /^Not sent/.test(text)).length;
    }
    // Late changes (the timeouts) land after the client gave up: wait for them.
    await waitFor(() => countCopies(emulator, updates).length === updates, 15_000);
    report.requestsSent = emulator.stats.count(ROUTE) - sentBefore;
    const copies = countCopies(emulator, updates);
    report.appliedOnce = copies.filter((count) => count === 1).length;
    report.appliedTwice = copies.filter((count) => count > 1).length;
    return report;
  } finally {
    await proxy.close();
    await emulator.close();
  }
}
