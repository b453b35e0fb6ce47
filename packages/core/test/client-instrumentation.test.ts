import { afterEach, describe, expect, it } from 'vitest';
import {
  type CallObserver,
  CatalogClient,
  type CatalogInstrumentation,
  MemoryCatalogStore,
  RateLimitError,
  ServerError,
} from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

/*
 * Issue 38: the client's `instrumentation` option. Core reports each call's attempts,
 * answers, waits and end, in order, to the observer the instrumentation returns; a bad
 * option is a ConfigurationError naming it.
 */

let server: TestServer | undefined;
afterEach(() => server?.close());

/** An instrumentation that writes down every report, as text. */
function recording() {
  const reports: string[] = [];
  const instrumentation: CatalogInstrumentation = {
    startCall(operation, mutates) {
      reports.push(`start ${operation} mutates=${mutates}`);
      const observer: CallObserver = {
        attemptStart: (attempt) => reports.push(`attempt ${attempt}`),
        response: (status, tier) => reports.push(`response ${status} tier=${tier}`),
        attemptEnd: (attempt, error) =>
          reports.push(
            `attempt ${attempt} end ${error === undefined ? 'ok' : (error as Error).name}`,
          ),
        wait: (kind, ms) => reports.push(`wait ${kind} ${ms}`),
        end: (error, attempts) =>
          reports.push(
            `end ${error === undefined ? 'ok' : (error as ServerError).name} attempts=${attempts} outcomeUnknown=${(error as ServerError | undefined)?.outcomeUnknown}`,
          ),
      };
      return observer;
    },
  };
  return { reports, instrumentation };
}

describe('instrumentation option', () => {
  it('reports a retried search in order: attempts, answers, the retry wait, the end', async () => {
    let calls = 0;
    server = await startTestServer((_request, response) => {
      calls += 1;
      if (calls === 1) sendJson(response, 503, { detail: 'busy' }, { 'retry-after': '0' });
      else sendJson(response, 200, { websites: [] });
    });
    const { reports, instrumentation } = recording();
    const client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, instrumentation });
    await client.websites.search({ query: 'shoes' });
    expect(reports).toEqual([
      'start websites.search mutates=false',
      'attempt 1',
      'response 503 tier=null',
      'attempt 1 end ServerError',
      'wait retry 0',
      'attempt 2',
      'response 200 tier=null',
      'attempt 2 end ok',
      'end ok attempts=2 outcomeUnknown=undefined',
    ]);
  });

  it('reports a failed change with its outcome unknown', async () => {
    server = await startTestServer((_request, response) =>
      sendJson(response, 500, { detail: 'x' }),
    );
    const { reports, instrumentation } = recording();
    const client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, instrumentation });
    await expect(client.collections.update('col_1', { name: 'n' })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(reports.at(0)).toBe('start collections.update mutates=true');
    expect(reports.at(-1)).toBe('end ServerError attempts=1 outcomeUnknown=true');
  });

  it('reports the rate-limit pause a 429 leaves, waited before the next call is sent', async () => {
    let calls = 0;
    server = await startTestServer((_request, response) => {
      calls += 1;
      if (calls === 1) sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '1' });
      else sendJson(response, 200, { websites: [] });
    });
    const { reports, instrumentation } = recording();
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      store: new MemoryCatalogStore(),
      maxRetries: 0,
      instrumentation,
    });
    await expect(client.websites.search({ query: 'shoes' })).rejects.toBeInstanceOf(RateLimitError);
    reports.length = 0;
    await client.websites.search({ query: 'shoes' });
    const [start, pause, ...rest] = reports;
    expect(start).toBe('start websites.search mutates=false');
    expect(pause).toMatch(/^wait rateLimitPause \d+$/);
    expect(Number(pause?.split(' ')[2])).toBeGreaterThan(500);
    expect(rest.at(0)).toBe('attempt 1');
    expect(calls).toBe(2);
  });

  // Red team T1: telemetry never changes a call's outcome.
  it('an instrumentation that throws at any report leaves the call as it was, once warned', async () => {
    let patches = 0;
    server = await startTestServer((request, response) => {
      if (request.method === 'PATCH') patches += 1;
      if (request.method === 'PATCH') {
        sendJson(response, 200, {
          collection_id: 'col_1',
          name: 'n',
          description: '',
          clauses: [],
          created_at: '2025-05-01T09:30:00.000Z',
          updated_at: '2025-05-01T09:30:00.000Z',
        });
      } else sendJson(response, 200, { websites: [] });
    });
    const thrower = (at: string): CatalogInstrumentation => ({
      startCall() {
        if (at === 'startCall') throw new Error('exporter down');
        const fail = (name: string) => () => {
          if (name === at) throw new Error('exporter down');
        };
        return {
          attemptStart: fail('attemptStart'),
          response: fail('response'),
          attemptEnd: fail('attemptEnd'),
          wait: fail('wait'),
          end: fail('end'),
        };
      },
    });
    for (const at of ['startCall', 'attemptStart', 'response', 'attemptEnd', 'end']) {
      const warnings: string[] = [];
      const client = new CatalogClient({
        apiKey: TEST_KEY,
        baseUrl: server.origin,
        instrumentation: thrower(at),
        logger: { warn: (message) => warnings.push(message) },
      });
      await expect(client.websites.search({ query: 'shoes' }), at).resolves.toEqual({
        websites: [],
      });
      const updated = await client.collections.update('col_1', { name: 'n' });
      expect(updated, at).toBeDefined();
      expect(warnings, at).toEqual([
        'websites.search: the instrumentation threw; this call is not observed',
        'collections.update: the instrumentation threw; this call is not observed',
      ]);
    }
    // Each change was sent once, whatever threw.
    expect(patches).toBe(5);
  });
});
