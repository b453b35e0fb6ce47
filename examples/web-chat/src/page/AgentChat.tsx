import { useChat } from '@ai-sdk/react';
import { type BuyLinkSources, renderAnswerHtml } from '@catalogkit/links';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { CollectionChange } from './CollectionChange.js';
import { Composer } from './Composer.js';
import type { ShopMessage, ShopPart } from './messages.js';
import { ProductCards } from './ProductCards.js';
import { usePageConfig } from './page-config.js';
import { collectionNames } from './shop-view.js';

type Respond = (answer: { id: string; approved: boolean; reason?: string }) => void;
interface PartProps {
  part: ShopPart;
  respond: Respond;
  titles: ReadonlyMap<string, string>;
  collections: ReadonlyMap<string, string>;
  showCommission: boolean;
  /** The catalog results of the chat so far: the only buy links an answer may make clickable. */
  sources: BuyLinkSources;
}

/** Titles of the products every search so far returned, by product id. */
function productTitles(messages: ShopMessage[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const part of messages.flatMap((message) => message.parts)) {
    if (part.type !== 'tool-search_catalog' || part.state !== 'output-available') continue;
    for (const product of part.output.response.products) titles.set(product.id, product.title);
  }
  return titles;
}

/** The `search_catalog` results of every message, as the buy link guards read them. */
function catalogResults(messages: ShopMessage[]): BuyLinkSources {
  return messages
    .flatMap((message) => message.parts)
    .flatMap((part) =>
      part.type === 'tool-search_catalog' && part.state === 'output-available'
        ? [{ toolName: 'search_catalog', output: part.output }]
        : [],
    );
}

/**
 * A model's answer, rendered as Markdown by `renderAnswerHtml`: raw HTML is escaped, and only
 * buy links of the chat's catalog results are clickable, so the HTML is safe to set.
 */
function AnswerText({ text, sources }: { text: string; sources: BuyLinkSources }) {
  const html = renderAnswerHtml(text, sources);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderAnswerHtml escapes raw HTML and keeps only buy links
  return <div className="text" dangerouslySetInnerHTML={{ __html: html }} />;
}

function ToolPart({ part, respond, titles, collections, showCommission, sources }: PartProps) {
  switch (part.type) {
    case 'text':
      return <AnswerText text={part.text} sources={sources} />;
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
              {website.url}
              {showCommission ? ` · best commission ${website.best_commission_rate ?? 0}%` : null}
            </li>
          ))}
        </ul>
      );
    case 'tool-update_collection':
      return (
        <CollectionChange part={part} respond={respond} titles={titles} collections={collections} />
      );
    default:
      return null;
  }
}

function Message({ message, ...rest }: Omit<PartProps, 'part'> & { message: ShopMessage }) {
  return (
    <div className={`message ${message.role}`}>
      {message.parts.map((part, index) => (
        // Parts have no ids of their own; their order in a message never changes.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <ToolPart key={index} part={part} {...rest} />
      ))}
    </div>
  );
}

/** What the shopper reads when a turn failed. */
function explain(error: Error): string {
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (error instanceof TypeError) {
    return 'Could not reach the chat server. Check your connection and try again.';
  }
  return `The assistant could not answer: ${error.message}`;
}

/** Flow 1: your own agent, streamed by AI SDK UI from `POST /api/chat`. */
export function AgentChat() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat<ShopMessage>({
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    // After Approve or Deny, the chat goes back to the server, which runs (or skips) the tool.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const busy = status === 'submitted' || status === 'streaming';
  const titles = productTitles(messages);
  const sources = catalogResults(messages);
  const config = usePageConfig();
  const collections = collectionNames(messages, config.collections);
  return (
    <section className="chat" aria-label="Find products" data-status={status}>
      <div className="messages">
        {messages.length === 0 ? (
          <p className="empty">
            Tell me what you are looking for. I will show what is in stock, with prices from each
            store.
          </p>
        ) : null}
        {messages.map((message) => (
          <Message
            key={message.id}
            message={message}
            respond={addToolApprovalResponse}
            titles={titles}
            sources={sources}
            collections={collections}
            showCommission={config.showCommission}
          />
        ))}
        {status === 'submitted' ? <p className="tool-note">Thinking…</p> : null}
        {error ? (
          <p className="error-banner" role="alert">
            {explain(error)}
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
