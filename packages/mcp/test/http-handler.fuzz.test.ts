import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { openServerCount } from '../src/request-scope.js';
import { runningToolCallCount } from '../src/server.js';
import { eventually } from './support/hanging-tool.js';
import { type MountedHandler, mountInHono } from './support/http-host.js';
import { type KeyEchoService, startKeyEchoService } from './support/key-echo-service.js';
import { type HostileRequest, hostileRequest, Random } from './support/rpc-generator.js';

/*
 * Generated malformed JSON-RPC requests against the handler over HTTP (Hono on Node), its
 * tools calling a service that echoes the key into every answer. Whatever arrives, the
 * answer is a well-formed JSON-RPC message or error with a status below 500, it comes
 * within a bound, it never holds the key, and no server is left open.
 * `pnpm fuzz` runs more (CATALOGKIT_FUZZ_RUNS); CATALOGKIT_FUZZ_SEED replays a run.
 */

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 150;
const SEED = Number(process.env.CATALOGKIT_FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);
const SECRET = 'ck_live_fuzz_9d2e4b7a1c';
// Far above what any answer here takes; a hang is what it catches.
const ANSWER_WITHIN_MS = 10_000;

let service: KeyEchoService;
const hosts: MountedHandler[] = [];

beforeAll(async () => {
  service = await startKeyEchoService();
  for (const sse of [false, true]) {
    const clientOptions = { apiKey: SECRET, baseUrl: service.baseUrl, mcpUrl: service.mcpUrl };
    const handle = createCatalogMcpHandler({ sse, clientOptions, maxBodyBytes: 256 * 1024 });
    hosts.push(await mountInHono(handle));
  }
});

afterAll(async () => {
  for (const host of hosts) await host.close();
  await service?.close();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  headers: string;
}

async function send(url: URL, request: HostileRequest): Promise<Answer> {
  const { method, headers, body } = request;
  const response = await fetch(url, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
    headers: JSON.stringify([...response.headers]),
  };
}

/** The JSON-RPC messages of an answer, from one JSON body or the data of each SSE event. */
function messagesOf(answer: Answer): unknown[] {
  if (answer.contentType.startsWith('text/event-stream')) {
    return answer.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as unknown);
  }
  const parsed = JSON.parse(answer.text) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

function expectRpcMessage(message: unknown): void {
  expect(message).toMatchObject({ jsonrpc: '2.0' });
  const rpc = message as Record<string, unknown>;
  expect('id' in rpc).toBe(true);
  expect('result' in rpc !== 'error' in rpc).toBe(true);
  if ('error' in rpc) {
    expect(rpc.error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
    expect(Number.isInteger((rpc.error as { code: number }).code)).toBe(true);
  }
}

function expectWellFormed(answer: Answer, request: HostileRequest): void {
  expect(answer.status).toBeLessThan(500);
  expect(`${answer.headers}${answer.text}`.toLowerCase()).not.toContain(SECRET);
  if (request.method === 'POST' && answer.status === 202) {
    expect(answer.text).toBe('');
    return;
  }
  const messages = messagesOf(answer);
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) expectRpcMessage(message);
  if (answer.status >= 400) {
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ error: expect.any(Object) });
  }
}

describe(`malformed JSON-RPC requests to the HTTP handler (seed ${SEED}, ${RUNS} runs)`, () => {
  it('answer each with JSON-RPC or a 4xx, in time, without the key, leaving no server open', async () => {
    const random = new Random(SEED);
    const statuses = new Map<number, number>();
    for (let run = 0; run < RUNS; run++) {
      const request = hostileRequest(random);
      const host = hosts[run % hosts.length] as MountedHandler;
      const answer = await send(host.url, request);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      try {
        expectWellFormed(answer, request);
      } catch (error) {
        throw new Error(
          `seed ${SEED} run ${run}: ${request.description}\n→ ${answer.status} ${answer.text.slice(0, 500)}\n${String(error)}`,
        );
      }
    }
    await eventually(() => openServerCount() === 0 && runningToolCallCount() === 0);
    expect(openServerCount()).toBe(0);
    // Counted by call, not by server: a call its server lost track of still shows here.
    expect(runningToolCallCount()).toBe(0);
    // The generator reaches past the refusals: some requests are answered.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
  });
});
