import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepeatedUpdateError, StoreUnavailableError } from '../src/errors/index.js';
import { MemoryCatalogStore } from '../src/store/memory-store.js';
import { UpdateMemory } from '../src/tools/built-in/update-memory.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

// A collection service that applies every PATCH it reads, then answers as `mode` says:
// the way an update can fail after the change was made.
type Mode =
  | 'ok'
  | '500'
  | 'drop'
  | 'hang'
  | 'truncate'
  | '404'
  | 'unreadable'
  | 'empty'
  | 'html'
  | 'not-json';
let mode: Mode = 'ok';
let applied = 0;
let service: TestServer;

function collection() {
  return { collection_id: 'col_1', name: 'Summer', clauses: [] };
}

function answer(request: ReceivedRequest, response: ServerResponse) {
  if (request.url.startsWith('/v1/websites')) return sendJson(response, 500, { detail: 'down' });
  if (mode === '404') return sendJson(response, 404, { detail: 'Collection not found' });
  applied += 1;
  if (mode === 'ok') return sendJson(response, 200, collection());
  if (mode === '500') return sendJson(response, 500, { detail: 'Internal error' });
  if (mode === 'drop') {
    response.socket?.destroy();
    return;
  }
  if (mode === 'truncate') {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    response.write('{"collection_id":"col_1","na');
    setTimeout(() => response.socket?.destroy(), 20);
  }
  // A 2xx the client cannot read: the change was applied all the same.
  if (mode === 'unreadable') return sendJson(response, 200, { ok: true });
  if (mode === 'empty') return response.writeHead(200).end();
  if (mode === 'html') {
    return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Saved</p>');
  }
  if (mode === 'not-json') {
    return response.writeHead(200, { 'content-type': 'application/json' }).end('{"collection_');
  }
  // 'hang': never answers; the client's timeout ends the call.
}

beforeAll(async () => {
  service = await startTestServer(answer);
});
afterAll(() => service.close());

function tools(): { update: AnyCatalogTool; websites: AnyCatalogTool } {
  const list = createCatalogToolList({
    clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, timeoutMs: 1_500 },
    include: ['update_collection', 'search_websites'],
  });
  return { update: list[1] as AnyCatalogTool, websites: list[0] as AnyCatalogTool };
}

const rename = (name: string) => ({ collection_id: 'col_1', name });

/** What the model reads of one call. */
async function modelText(tool: AnyCatalogTool, input: unknown): Promise<string> {
  try {
    return tool.toModelOutput((await tool.execute(input as never)) as never);
  } catch (error) {
    return tool.errorToModelOutput(error) ?? `rethrown: ${String(error)}`;
  }
}

describe('update_collection when the change may have been applied', () => {
  it.each(['500', 'drop', 'hang', 'truncate', 'unreadable', 'empty', 'html', 'not-json'] as const)(
    'after %s: the model reads that the outcome is unknown, and a repeat is not sent',
    async (fault) => {
      const { update } = tools();
      mode = fault;
      const before = applied;
      const first = await modelText(update, rename(`Fault ${fault}`));
      expect(first).toContain('outcome is unknown');
      expect(first).toContain('Do not call this tool again with the same change');
      expect(first).toContain('Tell the user');
      expect(first).not.toMatch(/try (once )?(more|again)/i);
      expect(applied).toBe(before + 1);

      // The model repeats it anyway: nothing is sent, and it is told why.
      mode = 'ok';
      const requests = service.requests.length;
      const repeat = await modelText(update, rename(`Fault ${fault}`));
      expect(repeat).toContain('Not sent: this exact update of collection col_1');
      expect(service.requests.length).toBe(requests);

      // A different change is sent as usual.
      expect(await modelText(update, rename('Other'))).toContain('Updated collection');
      expect(applied).toBe(before + 2);
    },
  );

  it('a repeat of an update that just succeeded is answered from memory', async () => {
    const { update } = tools();
    mode = 'ok';
    const before = applied;
    expect(await modelText(update, rename('Once'))).toMatch(/^Updated collection/);
    const repeat = await modelText(update, { ...rename('Once'), description: null });
    expect(repeat).toMatch(/^This exact update had just been applied, so it was not sent again/);
    const output = await update.execute(rename('Once') as never);
    expect(output).toMatchObject({ alreadyApplied: true, response: collection() });
    expect(applied).toBe(before + 1);
  });

  it('identical calls made at once send one request', async () => {
    const { update } = tools();
    mode = 'ok';
    const before = applied;
    const [a, b] = await Promise.all([
      modelText(update, rename('Twice at once')),
      modelText(update, rename('Twice at once')),
    ]);
    expect(applied).toBe(before + 1);
    expect([a, b].filter((text) => text.startsWith('This exact update'))).toHaveLength(1);
  });

  it('a refusal (404) is not remembered: the model may fix it and try again', async () => {
    const { update } = tools();
    mode = '404';
    const requests = service.requests.length;
    expect(await modelText(update, rename('Missing'))).toContain('Not found');
    expect(await modelText(update, rename('Missing'))).toContain('Not found');
    expect(service.requests.length).toBe(requests + 2);
  });

  it('searches, which change nothing, may still be tried once more', async () => {
    const { websites } = tools();
    expect(await modelText(websites, { query: 'nike' })).toContain('You may try once more later');
  });
});

describe('UpdateMemory', () => {
  it('forgets after its time (timed by the store), never for lack of room: then it sends nothing', async () => {
    let now = 0;
    // An unknown outcome holds its claim (never evicted before it expires) and the
    // collection's latest update; a send also holds the collection's mark meanwhile.
    const store = new MemoryCatalogStore({ now: () => now, maxEntries: 4 });
    const memory = new UpdateMemory(store, { ttlMs: 1_000 });
    let sends = 0;
    const lost = () => {
      sends += 1;
      return Promise.reject(Object.assign(new Error('lost'), { outcomeUnknown: true }));
    };
    const unknown = (error: unknown) =>
      (error as { outcomeUnknown?: boolean }).outcomeUnknown === true;
    const attempt = (id: string) =>
      memory.run(id, { name: 'x' }, lost, unknown).catch((error: unknown) => error);
    expect(await attempt('a')).not.toBeInstanceOf(RepeatedUpdateError);
    expect(await attempt('a')).toBeInstanceOf(RepeatedUpdateError);
    now = 1_001;
    expect(await attempt('a')).not.toBeInstanceOf(RepeatedUpdateError);
    await attempt('b');
    expect(sends).toBe(3);
    // Full of claims: the third collection's update is not sent, rather than forget one.
    expect(await attempt('c')).toBeInstanceOf(StoreUnavailableError);
    expect(sends).toBe(3);
    expect(await attempt('a')).toBeInstanceOf(RepeatedUpdateError);
    expect(await attempt('b')).toBeInstanceOf(RepeatedUpdateError);
  });

  it('treats the same ids in another order as the same update', async () => {
    const memory = new UpdateMemory();
    let sent = 0;
    const send = async () => {
      sent += 1;
      return { collection_id: 'c' };
    };
    const never = () => false;
    await memory.run('c', { remove_clause_ids: ['x', 'y'] }, send, never);
    const again = await memory.run('c', { remove_clause_ids: ['y', 'x'] }, send, never);
    expect(again.sent).toBe(false);
    expect(sent).toBe(1);
  });

  describe('the last known state (what duplicate-clause suppression trusts)', () => {
    const never = () => false;
    const state = (updatedAt: string, note: string) => ({
      collection_id: 'c',
      name: note,
      updated_at: updatedAt,
    });

    it('knows no state after two updates of the collection overlapped (either answer may be the older)', async () => {
      const memory = new UpdateMemory();
      let answerOlder: (() => void) | undefined;
      const older = memory.run(
        'c',
        { name: 'older' },
        () =>
          new Promise((resolve) => {
            answerOlder = () => resolve(state('2026-01-01T00:00:01Z', 'older'));
          }),
        never,
      );
      while (answerOlder === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
      await memory.run(
        'c',
        { name: 'newer' },
        async () => state('2026-01-01T00:00:02Z', 'newer'),
        never,
      );
      expect(await memory.lastKnownState('c')).toBeUndefined();
      answerOlder?.();
      await older;
      expect(await memory.lastKnownState('c')).toBeUndefined();
    });

    it('knows no state while an update of the collection is unanswered', async () => {
      const memory = new UpdateMemory();
      await memory.run('c', { name: 'a' }, async () => state('2026-01-01T00:00:01Z', 'a'), never);
      let answer: (() => void) | undefined;
      const pending = memory.run(
        'c',
        { remove_clause_ids: ['x'] },
        () =>
          new Promise((resolve) => {
            answer = () => resolve(state('2026-01-01T00:00:02Z', 'b'));
          }),
        never,
      );
      // Sent (its claim and bookkeeping are written first, asynchronously), not answered.
      while (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(await memory.lastKnownState('c')).toBeUndefined();
      // A repeat of the earlier success is sent too: it is no longer the latest change.
      let sent = 0;
      const repeat = memory.run(
        'c',
        { name: 'a' },
        async () => {
          sent += 1;
          return state('2026-01-01T00:00:03Z', 'a');
        },
        never,
      );
      answer?.();
      await pending;
      expect((await repeat).sent).toBe(true);
      expect(sent).toBe(1);
      expect((await memory.lastKnownState('c'))?.name).toBe('a');
    });

    it('trusts a state, and answers a repeat from memory, for a minute only', async () => {
      let now = 0;
      const memory = new UpdateMemory(new MemoryCatalogStore({ now: () => now }));
      await memory.run('c', { name: 'a' }, async () => state('2026-01-01T00:00:01Z', 'a'), never);
      now = 59_999;
      expect((await memory.lastKnownState('c'))?.name).toBe('a');
      const repeat = async () => state('2026-01-01T00:00:02Z', 'a');
      expect((await memory.run('c', { name: 'a' }, repeat, never)).sent).toBe(false);
      now = 60_001;
      // Another writer may have changed it since.
      expect(await memory.lastKnownState('c')).toBeUndefined();
      // A repeat a minute later is sent: the shopper asks again because it is not there.
      expect((await memory.run('c', { name: 'a' }, repeat, never)).sent).toBe(true);
    });

    it('forgets the state when an update of unknown outcome may have changed it', async () => {
      const memory = new UpdateMemory();
      await memory.run('c', { name: 'a' }, async () => state('2026-01-01T00:00:01Z', 'a'), never);
      const lost = () => Promise.reject(new Error('lost'));
      await memory.run('c', { name: 'b' }, lost, () => true).catch(() => undefined);
      expect(await memory.lastKnownState('c')).toBeUndefined();
    });
  });
});
