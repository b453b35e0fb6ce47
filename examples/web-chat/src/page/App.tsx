import { useEffect, useState } from 'react';
import { AgentChat } from './AgentChat.js';
import { PageConfigContext, readPageConfig } from './page-config.js';
import { ServiceChat } from './ServiceChat.js';

type Flow = 'agent' | 'service';

function flowFromHash(): Flow {
  return window.location.hash === '#service' ? 'service' : 'agent';
}

// What the shopper reads: what each chat does for them, not how it is built.
const FLOWS: Array<{ id: Flow; title: string; blurb: string }> = [
  {
    id: 'agent',
    title: 'Find products',
    blurb:
      'Say what you need and compare prices across stores. Nothing is saved to your lists until you say yes.',
  },
  {
    id: 'service',
    title: 'Ask the store',
    blurb: 'Questions about a product? Chat with the store’s assistant.',
  },
];

/**
 * Two chats, one per flow; the hash (#agent, #service) picks one. Flow 1 is your own agent,
 * flow 2 the service's conversations (see the README).
 */
export function App() {
  const [flow, setFlow] = useState<Flow>(flowFromHash);
  useEffect(() => {
    const onHash = () => setFlow(flowFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = FLOWS.find((entry) => entry.id === flow) ?? FLOWS[0];
  const [config] = useState(readPageConfig);
  return (
    <PageConfigContext value={config}>
      <div className="app">
        <header className="app-header">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              ◆
            </span>
            catalogkit <span className="brand-sub">shop</span>
          </div>
          <nav className="tabs" aria-label="Chats">
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
        <p className="flow-blurb">{current?.blurb}</p>
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
    </PageConfigContext>
  );
}
