import { AuthenticationError, ConnectionError, TimeoutError } from '@catalogkit/core';
import type { ChatSession } from '@catalogkit/core/conversations';
import { useEffect, useRef, useState } from 'react';
import { Composer } from './Composer.js';
import { createServiceSession, TokenEndpointError } from './service-session.js';

interface Line {
  id: number;
  role: 'user' | 'assistant';
  text: string;
}

/** What the shopper reads when a message could not be sent; never the error's internals. */
function explain(error: unknown): string {
  if (error instanceof TokenEndpointError) return error.message;
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return 'The shopping service is not answering right now. Try again in a moment.';
  }
  if (error instanceof AuthenticationError) {
    return 'The chat session expired. Reload the page to start a new one.';
  }
  return 'Your message could not be sent. Try again in a moment.';
}

/** Flow 2: the service's conversations, with a short-lived token held by this page. */
export function ServiceChat() {
  const session = useRef<ChatSession | undefined>(undefined);
  const [lines, setLines] = useState<Line[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  // Closing stops nothing on the wire (the session never polls); it aborts a send in flight.
  useEffect(() => () => session.current?.close(), []);

  const send = async (text: string) => {
    session.current ??= createServiceSession();
    setBusy(true);
    setProblem(undefined);
    setLines((current) => [...current, { id: current.length, role: 'user', text }]);
    try {
      const turn = await session.current.send(text);
      setLines((current) => [
        ...current,
        { id: current.length, role: 'assistant', text: turn.reply.content },
      ]);
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="chat" aria-label="Ask the store" data-busy={busy}>
      <div className="messages">
        {lines.length === 0 ? (
          <p className="empty">
            Ask about a product, a size or a store. Your message is sent when you press Send.
          </p>
        ) : null}
        {lines.map((line) => (
          <div key={line.id} className={`message ${line.role}`}>
            <p className="text">{line.text}</p>
          </div>
        ))}
        {busy ? <p className="tool-note">Sending…</p> : null}
        {problem ? (
          <p className="error-banner" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      <Composer
        placeholder="Ask the shop assistant"
        busy={busy}
        onSend={(text) => void send(text)}
      />
    </section>
  );
}
