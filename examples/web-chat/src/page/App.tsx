import { useEffect, useState } from 'react';
import { AgentChat } from './AgentChat.js';
import { ServiceChat } from './ServiceChat.js';

type Flow = 'agent' | 'service';

function flowFromHash(): Flow {
  return window.location.hash === '#service' ? 'service' : 'agent';
}

const FLOWS: Array<{ id: Flow; title: string; blurb: string }> = [
  {
    id: 'agent',
    title: 'Your agent',
    blurb: 'streamText with the catalog tools on your server; changes wait for your approval.',
  },
  {
    id: 'service',
    title: 'Service conversations',
    blurb: "the service's own assistant; this page holds a short-lived token, never the key.",
  },
];

/** Two chats, one per flow; the hash (#agent, #service) picks one. */
export function App() {
  const [flow, setFlow] = useState<Flow>(flowFromHash);
  useEffect(() => {
    const onHash = () => setFlow(flowFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = FLOWS.find((entry) => entry.id === flow) ?? FLOWS[0];
  return (
    <div className="app">
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>
          catalogkit <span className="brand-sub">web chat</span>
        </div>
        <nav className="tabs" aria-label="Chat flows">
          {FLOWS.map((entry) => (
            <a
              key={entry.id}
              href={`#${entry.id}`}
              className={entry.id === flow ? 'tab active' : 'tab'}
              aria-current={entry.id === flow ? 'page' : undefined}
            >
              {entry.title}
            </a>
          ))}
        </nav>
      </header>
      <p className="flow-blurb">
        <strong>{current?.title}:</strong> {current?.blurb}
      </p>
      {/* Both stay mounted so switching tabs keeps each conversation. */}
      <main className="chat-area">
        <div hidden={flow !== 'agent'}>
          <AgentChat />
        </div>
        <div hidden={flow !== 'service'}>
          <ServiceChat />
        </div>
      </main>
    </div>
  );
}
