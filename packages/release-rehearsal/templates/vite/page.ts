// A browser page built with Vite: a shopper's chat with the service's assistant. Our server
// (server.ts) holds the API key, creates the conversation and mints tokens; the page gets
// tokens through it and sends turns straight to the service. The outcome goes to the title.
import { CatalogClient } from '@catalogkit/core';
import {
  ChatSession,
  ConversationTokenManager,
  createTurnSender,
  type MintedToken,
} from '@catalogkit/core/conversations';

interface Started {
  conversationId: string;
  /** Where turns go: the service's REST base address. */
  serviceUrl: string;
  minted: MintedToken;
}

async function post<T>(path: string, body: object, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

async function main(): Promise<object> {
  const { conversationId, serviceUrl, minted } = await post<Started>('/api/conversation', {});
  const mint = ({ signal }: { signal?: AbortSignal }) =>
    post<MintedToken>('/api/token', { conversationId }, signal);

  // The token manager on its own: one mint, then the same token from its store.
  const manager = new ConversationTokenManager({ mint });
  const token = await manager.getToken();
  if ((await manager.getToken()) !== token) throw new Error('the token manager minted twice');
  manager.close();

  // The chat: the conversation and first token our server made, then one turn to the service.
  let first: MintedToken | undefined = minted;
  const chat = new ChatSession({
    sessionId: 'vite-page',
    createConversation: async () => ({ conversation_id: conversationId }),
    mintToken: async (context) => {
      const ready = first;
      first = undefined;
      return ready ?? mint(context);
    },
    sendTurn: createTurnSender({ client: new CatalogClient({ baseUrl: serviceUrl }) }),
  });
  const turn = await chat.send('Hello');
  chat.close();
  if (typeof turn.reply.content !== 'string') throw new Error('the turn has no reply');
  return { ok: true, conversationId };
}

main().then(
  (outcome) => {
    document.title = JSON.stringify(outcome);
  },
  (error: unknown) => {
    document.title = JSON.stringify({ ok: false, error: String(error) });
  },
);
