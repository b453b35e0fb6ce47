import {
  ConversationCreateSchema,
  TokenMintRequestSchema,
  TurnRequestSchema,
} from '@catalogkit/core/schemas';
import type { Context } from 'hono';
import { bearerCredential } from '../bearer.js';
import type { EmulatorContext } from '../context.js';
import type { StoredConversation, StoredToken } from '../state.js';
import type { RestVariables } from './auth.js';
import { detailError } from './errors.js';
import { validatedBody } from './read-json.js';
import { replyTo } from './turn-reply.js';

export const CONVERSATION_NOT_FOUND_DETAIL = 'Conversation not found.';

/** Token lifetime when the mint body names none (docs/service-contract.md: 30 min). */
const DEFAULT_TOKEN_TTL_SECONDS = 1800;

type RestContext = Context<{ Variables: RestVariables }>;

function ownConversation(
  emulator: EmulatorContext,
  c: RestContext,
): StoredConversation | undefined {
  const conversation = emulator.state.conversations.get(c.req.param('conversation_id') ?? '');
  return conversation && conversation.user_id === c.get('userId') ? conversation : undefined;
}

/** `POST /v1/conversations`: any JSON object (or no body) → 201. */
export function createConversationHandler(emulator: EmulatorContext) {
  return async (c: RestContext): Promise<Response> => {
    const body = await validatedBody(c, ConversationCreateSchema, true);
    if (!body.ok) return body.response;
    const conversation: StoredConversation = {
      conversation_id: emulator.state.nextId('conv_'),
      user_id: c.get('userId'),
      created_at: emulator.now().toISOString(),
      metadata: body.data,
      tokens: [],
      turns: [],
    };
    emulator.state.conversations.set(conversation.conversation_id, conversation);
    const { conversation_id, created_at, metadata } = conversation;
    return c.json({ conversation_id, created_at, metadata }, 201);
  };
}

/** `POST /v1/conversations/{id}/tokens`: mints a short-lived bearer token for turns. */
export function mintTokenHandler(emulator: EmulatorContext) {
  return async (c: RestContext): Promise<Response> => {
    const body = await validatedBody(c, TokenMintRequestSchema, true);
    if (!body.ok) return body.response;
    const conversation = ownConversation(emulator, c);
    if (!conversation) return detailError(c, 404, CONVERSATION_NOT_FOUND_DETAIL);
    const now = emulator.now();
    const requested = body.data.ttl_seconds ?? DEFAULT_TOKEN_TTL_SECONDS;
    const ttl = Math.min(requested, emulator.maxTokenTtlSeconds);
    const token: StoredToken = {
      token: `ctok_${crypto.randomUUID().replace(/-/g, '')}`,
      token_id: emulator.state.nextId('tok_'),
      conversation_id: conversation.conversation_id,
      expires_at: new Date(now.getTime() + ttl * 1000),
    };
    conversation.tokens.push(token);
    emulator.state.tokens.set(token.token, token);
    return c.json(
      { token: token.token, token_id: token.token_id, expires_at: token.expires_at.toISOString() },
      201,
    );
  };
}

/** The stored token a turn may use, or why the bearer credential cannot be used for this conversation. */
function turnToken(
  emulator: EmulatorContext,
  header: string | undefined,
  conversationId: string,
): { token: StoredToken } | { problem: string } {
  const credential = bearerCredential(header);
  if (!credential)
    return { problem: 'Missing conversation token: send Authorization: Bearer <token>.' };
  const token = emulator.state.tokens.get(credential);
  if (!token) return { problem: 'Invalid conversation token.' };
  if (token.conversation_id !== conversationId)
    return { problem: 'Invalid conversation token: it belongs to another conversation.' };
  if (token.expires_at.getTime() <= emulator.now().getTime()) {
    return {
      problem: `Conversation token expired at ${token.expires_at.toISOString()}: mint a new one.`,
    };
  }
  return { token };
}

/** `POST /v1/conversations/{id}/turns` with a conversation token (not the API key). */
export function turnHandler(emulator: EmulatorContext) {
  return async (c: Context): Promise<Response> => {
    const conversationId = c.req.param('conversation_id') ?? '';
    const access = turnToken(emulator, c.req.header('authorization'), conversationId);
    if ('problem' in access) return detailError(c, 401, access.problem);
    const conversation = emulator.state.conversations.get(conversationId);
    if (!conversation) return detailError(c, 404, CONVERSATION_NOT_FOUND_DETAIL);
    const body = await validatedBody(c, TurnRequestSchema);
    if (!body.ok) return body.response;
    const { message } = body.data;
    const turn = {
      turn_id: emulator.state.nextId('turn_'),
      message,
      reply: { role: 'assistant' as const, content: replyTo(emulator.data, message) },
      token_id: access.token.token_id,
    };
    conversation.turns.push(turn);
    return c.json({ turn_id: turn.turn_id, reply: turn.reply });
  };
}
