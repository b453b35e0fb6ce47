import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { CollectionChange } from './CollectionChange.js';
import { Composer } from './Composer.js';
import type { ShopMessage, ShopPart } from './messages.js';
import { ProductCards } from './ProductCards.js';

type Respond = (answer: { id: string; approved: boolean; reason?: string }) => void;

function ToolPart({ part, respond }: { part: ShopPart; respond: Respond }) {
  switch (part.type) {
    case 'text':
      return <p className="text">{part.text}</p>;
    case 'tool-search_catalog':
      if (part.state === 'output-available') return <ProductCards output={part.output} />;
      if (part.state === 'output-error') return <p className="tool-error">{part.errorText}</p>;
      return <p className="tool-note">Searching the catalog for “{part.input?.query}”…</p>;
    case 'tool-search_websites':
      if (part.state !== 'output-available')
        return <p className="tool-note">Looking up retailers…</p>;
      return (
        <ul className="retailers">
          {part.output.response.websites.map((website) => (
            <li key={website.id}>
              {website.url} · best commission {website.best_commission_rate ?? 0}%
            </li>
          ))}
        </ul>
      );
    case 'tool-update_collection':
      return <CollectionChange part={part} respond={respond} />;
    default:
      return null;
  }
}

function Message({ message, respond }: { message: ShopMessage; respond: Respond }) {
  return (
    <div className={`message ${message.role}`}>
      {message.parts.map((part, index) => (
        // Parts have no ids of their own; their order in a message never changes.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <ToolPart key={index} part={part} respond={respond} />
      ))}
    </div>
  );
}

/** Flow 1: your own agent, streamed by AI SDK UI from `POST /api/chat`. */
export function AgentChat() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat<ShopMessage>({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    // After Approve or Deny, the chat goes back to the server, which runs (or skips) the tool.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <section className="chat" aria-label="Your agent" data-status={status}>
      <div className="messages">
        {messages.length === 0 ? (
          <p className="empty">Ask for a product. Results come back as cards with buy links.</p>
        ) : null}
        {messages.map((message) => (
          <Message key={message.id} message={message} respond={addToolApprovalResponse} />
        ))}
        {status === 'submitted' ? <p className="tool-note">Thinking…</p> : null}
        {error ? (
          <p className="error-banner" role="alert">
            The assistant could not answer: {error.message}
          </p>
        ) : null}
      </div>
      <Composer
        placeholder="e.g. trail running shoes"
        busy={busy}
        // Failures land in `error` (shown above); the promise only mirrors them.
        onSend={(text) => void sendMessage({ text }).catch(() => undefined)}
        suggestions={
          messages.length === 0 ? ['trail running shoes', 'waterproof hiking jacket'] : undefined
        }
      />
    </section>
  );
}
