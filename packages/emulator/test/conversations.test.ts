import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/index.js';
import { manualClock, send, start } from './helpers.js';

async function createConversation(emulator: RunningEmulator, key = emulator.keys.valid) {
  const response = await send(
    emulator,
    'POST',
    '/v1/conversations',
    { shopper: 'demo' },
    { 'x-api-key': key },
  );
  return {
    status: response.status,
    body: (await response.json()) as { conversation_id: string; created_at: string },
  };
}

async function mint(
  emulator: RunningEmulator,
  conversationId: string,
  body: unknown = {},
  key = emulator.keys.valid,
) {
  const response = await send(
    emulator,
    'POST',
    `/v1/conversations/${conversationId}/tokens`,
    body,
    { 'x-api-key': key },
  );
  return {
    response,
    body: (await response.json()) as {
      token: string;
      token_id: string;
      expires_at: string;
      detail?: unknown;
    },
  };
}

function turn(
  emulator: RunningEmulator,
  conversationId: string,
  token: string | undefined,
  message: unknown = 'trail running shoes',
) {
  return send(
    emulator,
    'POST',
    `/v1/conversations/${conversationId}/turns`,
    { message },
    token ? { authorization: `Bearer ${token}` } : {},
  );
}

describe('conversations', () => {
  it('creates a conversation (201) from any JSON object, or from no body, and nothing else', async () => {
    const emulator = await start({ now: () => new Date('2026-03-01T10:00:00.000Z') });
    const { status, body } = await createConversation(emulator);
    expect(status).toBe(201);
    expect(body).toMatchObject({
      conversation_id: 'conv_0001',
      created_at: '2026-03-01T10:00:00.000Z',
      metadata: { shopper: 'demo' },
    });
    const empty = await fetch(`${emulator.baseUrl}/v1/conversations`, {
      method: 'POST',
      headers: { 'x-api-key': emulator.keys.valid },
    });
    expect(empty.status).toBe(201);
    const notObject = await send(emulator, 'POST', '/v1/conversations', [1, 2]);
    expect(notObject.status).toBe(422);
    const jsonNull = await send(emulator, 'POST', '/v1/conversations', 'null');
    expect(jsonNull.status).toBe(422);
    expect(((await jsonNull.json()) as { detail: unknown }).detail).toMatchObject([
      { loc: ['body'], type: 'object_type' },
    ]);
    expect(emulator.stats.count('POST /v1/conversations')).toBe(4);
    expect(emulator.state.conversations.size).toBe(2);
  });

  it('mints a token (201) with the default 30-minute lifetime and a Date header from the clock', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const emulator = await start({ now: clock.now });
    const { body: conversation } = await createConversation(emulator);
    const { response, body } = await mint(emulator, conversation.conversation_id);
    expect(response.status).toBe(201);
    expect(response.headers.get('date')).toBe('Sun, 01 Mar 2026 10:00:00 GMT');
    expect(body.token).toMatch(/^ctok_[0-9a-f]{32}$/);
    expect(body.token_id).toMatch(/^tok_/);
    expect(body.expires_at).toBe('2026-03-01T10:30:00.000Z');
    const custom = await mint(emulator, conversation.conversation_id, { ttl_seconds: 60 });
    expect(custom.body.expires_at).toBe('2026-03-01T10:01:00.000Z');
    expect(emulator.stats.count('POST /v1/conversations/:id/tokens')).toBe(2);
  });

  it.each([59, 7201, 1.5, '600'])('refuses ttl_seconds %j with 422', async (ttl) => {
    const emulator = await start();
    const { body: conversation } = await createConversation(emulator);
    const { response, body } = await mint(emulator, conversation.conversation_id, {
      ttl_seconds: ttl,
    });
    expect(response.status).toBe(422);
    expect(body.detail).toMatchObject([{ loc: ['body', 'ttl_seconds'] }]);
  });

  it('refuses an unknown field in the mint body with 422 naming it, minting nothing', async () => {
    const emulator = await start();
    const { body: conversation } = await createConversation(emulator);
    const { response, body } = await mint(emulator, conversation.conversation_id, {
      ttl: 600,
    });
    expect(response.status).toBe(422);
    expect(body.detail).toEqual([
      { loc: ['body', 'ttl'], msg: 'Extra inputs are not permitted: ttl', type: 'extra_forbidden' },
    ]);
    expect(emulator.state.tokens.size).toBe(0);
  });

  it('does not mint for an unknown or foreign conversation (404)', async () => {
    const emulator = await start();
    const { body: conversation } = await createConversation(emulator, emulator.keys.otherUser);
    expect((await mint(emulator, conversation.conversation_id)).response.status).toBe(404);
    expect((await mint(emulator, 'conv_9999')).response.status).toBe(404);
  });

  it('answers a turn sent with a valid token', async () => {
    const emulator = await start();
    const { body: conversation } = await createConversation(emulator);
    const { body: token } = await mint(emulator, conversation.conversation_id);
    const response = await turn(emulator, conversation.conversation_id, token.token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      turn_id: string;
      reply: { role: string; content: string };
    };
    expect(body.turn_id).toMatch(/^turn_/);
    expect(body.reply.role).toBe('assistant');
    expect(body.reply.content).toMatch(/Trail Running Shoe/);
    expect(emulator.state.conversations.get(conversation.conversation_id)?.turns).toHaveLength(1);
  });

  it('answers 401 for an expired, unknown, missing or other-conversation token', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const emulator = await start({ now: clock.now });
    const { body: first } = await createConversation(emulator);
    const { body: second } = await createConversation(emulator);
    const { body: token } = await mint(emulator, first.conversation_id, { ttl_seconds: 60 });
    expect((await turn(emulator, second.conversation_id, token.token)).status).toBe(401);
    expect((await turn(emulator, first.conversation_id, 'ctok_unknown')).status).toBe(401);
    expect((await turn(emulator, first.conversation_id, undefined)).status).toBe(401);
    const apiKeyInstead = await send(
      emulator,
      'POST',
      `/v1/conversations/${first.conversation_id}/turns`,
      { message: 'hi' },
    );
    expect(apiKeyInstead.status).toBe(401);
    clock.advance(59_000);
    expect((await turn(emulator, first.conversation_id, token.token)).status).toBe(200);
    clock.advance(1_000);
    const expired = await turn(emulator, first.conversation_id, token.token);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
    expect(emulator.state.conversations.get(first.conversation_id)?.turns).toHaveLength(1);
  });

  it('keeps the message exactly as typed and refuses unknown turn fields', async () => {
    const emulator = await start();
    const { body: conversation } = await createConversation(emulator);
    const { body: token } = await mint(emulator, conversation.conversation_id);
    const typed = '  trail running shoes  ';
    expect((await turn(emulator, conversation.conversation_id, token.token, typed)).status).toBe(
      200,
    );
    const stored = emulator.state.conversations.get(conversation.conversation_id);
    expect(stored?.turns[0]).toMatchObject({ message: typed, token_id: token.token_id });
    const extra = await send(
      emulator,
      'POST',
      `/v1/conversations/${conversation.conversation_id}/turns`,
      { message: 'hi', stream: true },
      { authorization: `Bearer ${token.token}` },
    );
    expect(extra.status).toBe(422);
    expect(((await extra.json()) as { detail: unknown }).detail).toMatchObject([
      { loc: ['body', 'stream'], type: 'extra_forbidden' },
    ]);
    expect(stored?.turns).toHaveLength(1);
  });

  it('refuses an empty message with 422', async () => {
    const emulator = await start();
    const { body: conversation } = await createConversation(emulator);
    const { body: token } = await mint(emulator, conversation.conversation_id);
    const response = await turn(emulator, conversation.conversation_id, token.token, '  ');
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: unknown }).detail).toMatchObject([
      { loc: ['body', 'message'] },
    ]);
  });
});
