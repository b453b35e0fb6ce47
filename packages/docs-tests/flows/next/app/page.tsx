'use client';
// app/page.tsx: the chat, with Approve and Deny on a collection change (as in the web chat example).
import { useChat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useState } from 'react';

export default function Chat() {
  const { messages, sendMessage, addToolApprovalResponse } = useChat({
    // Once the shopper has decided, the decision goes to the route (POST /api/chat) at once.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  return (
    <main>
      {messages.map((message) => (
        <div key={message.id} className={message.role}>
          {message.parts.map((part, index) => {
            const key = `${message.id}-${index}`;
            if (part.type === 'text') return <p key={key}>{part.text}</p>;
            if (part.type !== 'tool-update_collection') return null;
            const { collection_id } = part.input as { collection_id?: string };
            if (part.state === 'approval-requested') {
              const { id } = part.approval;
              return (
                <div key={key} className="approval">
                  <p>Change your collection {collection_id}?</p>
                  <button
                    type="button"
                    onClick={() => addToolApprovalResponse({ id, approved: true })}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      addToolApprovalResponse({
                        id,
                        approved: false,
                        reason: 'The shopper said no.',
                      })
                    }
                  >
                    Deny
                  </button>
                </div>
              );
            }
            if (part.state === 'output-available')
              return <p key={key}>Saved to {collection_id}.</p>;
            if (part.state === 'output-denied') return <p key={key}>Not changed.</p>;
            return null;
          })}
        </div>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(event) => setInput(event.target.value)} />
      </form>
    </main>
  );
}
