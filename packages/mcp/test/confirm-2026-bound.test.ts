import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { type MountedHandler, mountInHono } from './support/http-host.js';
import { updateCollection } from './support/inputs.js';

// Red-team finding F1: on 2026-07-28 an accept counted whatever question it answered (sent
// unasked, moved from one change to another, hidden under `__proto__`). An answer now
// counts only with the server-signed requestState of that very question.

const PATCH = 'PATCH /v1/collections/:id';
const SHARED_KEY = 'a shared confirmation key of 32 bytes or more, for tests';
const ACCEPT = { action: 'accept', content: {} };

let emulator: RunningEmulator;
let mounted: MountedHandler;
let twin: MountedHandler;
let stranger: MountedHandler;

function handlerWith(confirmationKey: string | undefined) {
  return createCatalogMcpHandler({
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
    ...(confirmationKey ? { confirmationKey } : {}),
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  mounted = await mountInHono(handlerWith(SHARED_KEY));
  twin = await mountInHono(handlerWith(SHARED_KEY));
  stranger = await mountInHono(handlerWith(undefined));
});

afterAll(async () => {
  await Promise.all([mounted?.close(), twin?.close(), stranger?.close()]);
  await emulator?.close();
});

interface Reply {
  resultType?: string;
  requestState?: string;
  isError?: boolean;
  content?: { text: string }[];
}

/** One raw 2026-07-28 tools/call of update_collection; the reply and the PATCHes it caused. */
async function call(
  url: URL,
  args: object,
  extra: Record<string, unknown> = {},
): Promise<{ result: Reply; patched: number }> {
  const before = emulator.stats.count(PATCH);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'update_collection',
    },
    // JSON.parse keeps a key "__proto__" as an own property, so it is sent as written.
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'update_collection',
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0' },
        },
        ...extra,
      },
    }),
  });
  const body = (await response.json()) as { result: Reply };
  return { result: body.result, patched: emulator.stats.count(PATCH) - before };
}

describe('2026-07-28: a confirmation counts only for the question it answers', () => {
  it('an accept with the state of its question applies that change once; a replay asks again', async () => {
    const change = updateCollection('col_summer', { name: 'Bound' });
    const asked = await call(mounted.url, change);
    expect(asked.result.resultType).toBe('input_required');
    expect(asked.result.requestState).toEqual(expect.any(String));
    expect(asked.patched).toBe(0);
    const applied = await call(mounted.url, change, {
      inputResponses: { confirm: ACCEPT },
      requestState: asked.result.requestState,
    });
    expect(applied.result.isError).toBeFalsy();
    expect(applied.patched).toBe(1);
    const replayed = await call(mounted.url, change, {
      inputResponses: { confirm: ACCEPT },
      requestState: asked.result.requestState,
    });
    expect(replayed.result.resultType).toBe('input_required');
    expect(replayed.patched).toBe(0);
  });

  it('an accept sent unasked, without a state, is no answer: the user is asked', async () => {
    const unasked = await call(mounted.url, updateCollection('col_summer', { name: 'Unasked' }), {
      inputResponses: { confirm: ACCEPT },
    });
    expect(unasked.result.resultType).toBe('input_required');
    expect(unasked.patched).toBe(0);
  });

  it('an accept of change A does not apply change B (same tool, other input)', async () => {
    const askA = await call(mounted.url, updateCollection('col_summer', { name: 'Harmless' }));
    const swapped = await call(
      mounted.url,
      updateCollection('col_summer', { remove_clause_ids: ['cl_1'] }),
      { inputResponses: { confirm: ACCEPT }, requestState: askA.result.requestState },
    );
    expect(swapped.result.resultType).toBe('input_required');
    expect(swapped.patched).toBe(0);
  });

  it('an accept hidden under inputResponses.__proto__ is no answer', async () => {
    const change = updateCollection('col_summer', { name: 'Proto' });
    const asked = await call(mounted.url, change);
    const smuggled = await call(mounted.url, change, {
      inputResponses: JSON.parse(`{"__proto__":{"confirm":${JSON.stringify(ACCEPT)}}}`),
      requestState: asked.result.requestState,
    });
    expect(smuggled.result.resultType).toBe('input_required');
    expect(smuggled.patched).toBe(0);
  });

  it('a forged or foreign-key state is no answer; a shared key is honoured across instances', async () => {
    const change = updateCollection('col_summer', { name: 'Shared' });
    const asked = await call(mounted.url, change);
    const state = asked.result.requestState ?? '';
    const forged = await call(mounted.url, change, {
      inputResponses: { confirm: ACCEPT },
      requestState: `${state.slice(0, -4)}AAAA`,
    });
    expect(forged.result.resultType).toBe('input_required');
    const foreign = await call(stranger.url, change, {
      inputResponses: { confirm: ACCEPT },
      requestState: state,
    });
    expect(foreign.result.resultType).toBe('input_required');
    expect(forged.patched + foreign.patched).toBe(0);
    const shared = await call(twin.url, change, {
      inputResponses: { confirm: ACCEPT },
      requestState: state,
    });
    expect(shared.result.isError).toBeFalsy();
    expect(shared.patched).toBe(1);
  });

  it('a confirmationKey shorter than 32 bytes is refused, naming the option', () => {
    expect(() => handlerWith('short')).toThrow(/confirmationKey/);
  });
});
