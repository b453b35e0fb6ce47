import { ConversationCreateSchema } from '@catalogkit/core';
import type { Context } from 'hono';
import type { EmulatorContext } from '../context.js';
import type { StoredConversation, StoredToken } from '../state.js';
import type { RestVariables } from './auth.js';
import { TOKEN_TTL, TokenRequestSchema, TurnRequestSchema } from './conversation-schemas.js';
import { detailError, issuesFromZod, PARSE_OPTIONS, validationError } from './errors.js';
import { readJsonBody } from './read-json.js';
import { replyTo } from './turn-reply.js';

export const CONVERSATION_NOT_FOUND_DETAIL = 'Conversation not found.';

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
    const body = await readJsonBody(c, true);
    if (!body.ok) return validationError(c, [body.issue]);
    const parsed = ConversationCreateSchema.safeParse(body.value ?? {}, PARSE_OPTIONS);
    if (!parsed.success) return validationError(c, issuesFromZod(parsed.error, 'body'));
    const conversation: StoredConversation = {
      conversation_id: emulator.state.nextId('conv_'),
      user_id: c.get('userId'),
      created_at: emulator.now().toISOString(),
      metadata: parsed.data,
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
    const body = await readJsonBody(c, true);
    if (!body.ok) return validationError(c, [body.issue]);
    const parsed = TokenRequestSchema.safeParse(body.value ?? {}, PARSE_OPTIONS);
    if (!parsed.success) return validationError(c, issuesFromZod(parsed.error, 'body'));
    const conversation = ownConversation(emulator, c);
    if (!conversation) return detailError(c, 404, CONVERSATION_NOT_FOUND_DETAIL);
    const now = emulator.now();
    const ttl = parsed.data.ttl_seconds ?? TOKEN_TTL.default;
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

/** Why a bearer token cannot be used for this conversation, or undefined when it can. */
function tokenProblem(
  emulator: EmulatorContext,
  header: string | undefined,
  conversationId: string,
): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) return 'Missing conversation token: send Authorization: Bearer <token>.';
  const token = emulator.state.tokens.get(match[1] as string);
  if (!token) return 'Invalid conversation token.';
  if (token.conversation_id !== conversationId)
    return 'Invalid conversation token: it belongs to another conversation.';
  if (token.expires_at.getTime() <= emulator.now().getTime()) {
    return `Conversation token expired at ${token.expires_at.toISOString()}: mint a new one.`;
  }
  return undefined;
}

/** `POST /v1/conversations/{id}/turns` with a conversation token (not the API key). */
export function turnHandler(emulator: EmulatorContext) {
  return async (c: Context): Promise<Response> => {
    const conversationId = c.req.param('conversation_id') ?? '';
    const problem = tokenProblem(emulator, c.req.header('authorization'), conversationId);
    if (problem) return detailError(c, 401, problem);
    const conversation = emulator.state.conversations.get(conversationId);
    if (!conversation) return detailError(c, 404, CONVERSATION_NOT_FOUND_DETAIL);
    const body = await readJsonBody(c);
    if (!body.ok) return validationError(c, [body.issue]);
    const parsed = TurnRequestSchema.safeParse(body.value, PARSE_OPTIONS);
    if (!parsed.success) return validationError(c, issuesFromZod(parsed.error, 'body'));
    const tokenValue = (c.req.header('authorization') ?? '').replace(/^Bearer\s+/i, '');
    const turn = {
      turn_id: emulator.state.nextId('turn_'),
      message: parsed.data.message,
      reply: { role: 'assistant' as const, content: replyTo(emulator.data, parsed.data.message) },
      token_id: emulator.state.tokens.get(tokenValue)?.token_id ?? '',
    };
    conversation.turns.push(turn);
    return c.json({ turn_id: turn.turn_id, reply: turn.reply });
  };
}
