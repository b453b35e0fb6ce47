import { CatalogClient } from '@catalogkit/core';
import {
  ChatSession,
  createTurnSender,
  type MintedToken,
  type TurnSender,
} from '@catalogkit/core/conversations';

/** What `POST /api/conversation-token` answers. */
interface TokenAnswer {
  conversationId: string;
  /** Where turns go: the service's REST base address. */
  serviceUrl: string;
  /** The token as core's server-side minter returned it, handed on to core's manager. */
  minted: MintedToken;
}

/** Our own server could not create the conversation or mint a token. */
export class TokenEndpointError extends Error {
  override name = 'TokenEndpointError';
}

/** Asks our server for a token; without a conversation id it also creates the conversation. */
async function requestToken(conversationId: string | undefined, signal: AbortSignal) {
  const response = await fetch('/api/conversation-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(conversationId ? { conversationId } : {}),
    signal,
  });
  const body = (await response.json().catch(() => ({}))) as Partial<TokenAnswer> & {
    error?: string;
  };
  if (!response.ok || !body.minted?.token || !body.conversationId || !body.serviceUrl) {
    throw new TokenEndpointError(body.error ?? `The chat server answered ${response.status}.`);
  }
  return body as TokenAnswer;
}

/**
 * One shopper's chat with the service's assistant. The page never sees the API key: our
 * server creates the conversation and mints tokens; turns go straight to the service with
 * the token. Core's ChatSession keeps one token for the whole chat, refreshes it only when
 * a message is sent near its expiry, and answers a 401 with one refresh and one retry.
 */
export function createServiceSession(): ChatSession {
  let serviceUrl = '';
  let sendTurn: TurnSender | undefined;
  // The endpoint mints a first token together with the conversation; it serves the first turn.
  let firstToken: MintedToken | undefined;
  const keep = (answer: TokenAnswer): MintedToken => {
    if (answer.serviceUrl !== serviceUrl) {
      serviceUrl = answer.serviceUrl;
      // No API key here: turns authenticate with the conversation token alone.
      sendTurn = createTurnSender({ client: new CatalogClient({ baseUrl: serviceUrl }) });
    }
    return answer.minted;
  };
  return new ChatSession({
    sessionId: 'web-chat',
    createConversation: async ({ signal }) => {
      const answer = await requestToken(undefined, signal);
      firstToken = keep(answer);
      return { conversation_id: answer.conversationId };
    },
    mintToken: async ({ conversationId, signal }) => {
      const ready = firstToken;
      firstToken = undefined;
      return ready ?? keep(await requestToken(conversationId, signal));
    },
    sendTurn: (turn) => {
      if (!sendTurn) throw new TokenEndpointError('No token yet.');
      return sendTurn(turn);
    },
  });
}
