import type { CatalogClient } from '../client.js';
import { ProtocolError } from '../errors/transport-errors.js';
import { parseResponse } from '../http/response-body.js';
import type { RestRequest } from '../http/rest-call.js';
import { parseChangeAnswer } from '../rest-operations.js';
import {
  ConversationIdSchema,
  ConversationTokenSchema,
  TokenMintRequestSchema,
  type Turn,
  TurnRequestSchema,
  TurnSchema,
} from '../schemas/conversations.js';
import { validateRequest } from '../validation/request.js';
import { requireToken } from '../validation/text.js';
import type { TokenMinter } from './token-manager.js';

/** What the HTTP helpers need of a `CatalogClient`: its low-level REST call. */
type RestCaller = Pick<CatalogClient, 'request'>;

/**
 * The life asked for when none is given, always sent: a service whose own default is shorter
 * would grant less than the client counts on, which a local clock behind would hide.
 */
const DEFAULT_TTL_SECONDS = 1800;

/** One POST to `/v1/conversations/{id}/{what}`; not idempotent, so resent only when it never arrived. */
function post(
  client: RestCaller,
  operation: string,
  turn: { conversationId: string; signal?: AbortSignal },
  what: 'tokens' | 'turns',
  request: Pick<RestRequest, 'body' | 'auth'>,
) {
  const id = validateRequest(
    ConversationIdSchema,
    turn.conversationId,
    operation,
    'conversationId',
  );
  const path = `/v1/conversations/${encodeURIComponent(id)}/${what}`;
  const { signal } = turn;
  return client.request({ operation, method: 'POST', path, retry: 'once', ...request }, { signal });
}

/**
 * A {@link TokenMinter} for SERVER-SIDE use, with the API key (an assumed endpoint, see
 * docs/service-contract.md). Never ship the API key to a browser: mint through your backend.
 */
export function createHttpTokenMinter(options: {
  /** A `CatalogClient` configured with the API key and base URL. */
  client: RestCaller;
  /** The conversation the tokens are for (from `client.conversations.create`). */
  conversationId: string;
  /** Token lifetime in seconds, 60 to 7200; default 1800 (always sent to the service). */
  ttlSeconds?: number;
}): TokenMinter {
  const operation = 'conversations.mintToken';
  const { client, conversationId } = options;
  validateRequest(ConversationIdSchema, conversationId, operation, 'conversationId');
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const body = validateRequest(TokenMintRequestSchema, { ttl_seconds: ttlSeconds }, operation);
  const mint: TokenMinter = async ({ signal }) => {
    const response = await post(client, operation, { conversationId, signal }, 'tokens', { body });
    const minted = parseChangeAnswer(ConversationTokenSchema, response, operation);
    const serverDate = response.headers.get('date') ?? undefined;
    return { token: minted.token, expiresAt: minted.expires_at, serverDate, ttlSeconds };
  };
  return (context) => mint(context).catch(unquoted);
}

/** A 2xx mint answer holds the new token, which no redactor knows yet: its errors quote nothing. */
function unquoted(error: unknown): never {
  const { status } = error as { status?: number };
  if (!ProtocolError.is(error) || status === undefined || status > 299) throw error;
  const message = `conversations.mintToken: unreadable answer (HTTP ${status})`;
  // A 2xx mint created a token, whatever its answer says.
  throw Object.assign(new ProtocolError(message, { status }), { outcomeUnknown: true });
}

/** One turn to send: `token` is the conversation token (never the API key), `message` as typed. */
export interface TurnInput {
  conversationId: string;
  token: string;
  message: string;
  signal?: AbortSignal;
}

/** Sends one turn; rejects with AuthenticationError (401) when the token is refused. */
export type TurnSender = (turn: TurnInput) => Promise<Turn>;

/**
 * A {@link TurnSender} with `Authorization: Bearer <token>` (never `x-api-key`; in a browser,
 * give it a `CatalogClient` without one). An empty message is refused (RequestValidationError
 * naming `message`) before sending.
 */
export function createTurnSender(options: { client: RestCaller }): TurnSender {
  const operation = 'conversations.sendTurn';
  return async (turn) => {
    const body = validateRequest(TurnRequestSchema, { message: turn.message }, operation);
    // Checked and trimmed like ChatSession's (visible ASCII only; the token is never quoted).
    const auth = { type: 'bearer' as const, token: requireToken(turn.token, operation) };
    const response = await post(options.client, operation, turn, 'turns', { body, auth });
    return parseResponse(TurnSchema, response.data, operation, response.status);
  };
}
