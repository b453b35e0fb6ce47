import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** The page flow bundled for the browser, as `next build` would ship it. */
async function bundlePage(): Promise<string> {
  const result = await build({
    stdin: {
      contents: [
        "import { createRoot } from 'react-dom/client';",
        "import Chat from './flows/next/app/page.tsx';",
        "createRoot(document.getElementById('root')).render(<Chat />);",
      ].join('\n'),
      loader: 'tsx',
      resolveDir: join(here, '../..'),
    },
    bundle: true,
    write: false,
    format: 'esm',
    jsx: 'automatic',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return new Request(new URL(incoming.url ?? '/', origin), {
    method: incoming.method,
    headers: incoming.headers as Record<string, string>,
    body: Buffer.concat(chunks),
  });
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) outgoing.write(chunk);
  outgoing.end();
}

/** What Next.js does for these two files: serves the page, and the route at /api/chat. */
export async function startNextStandIn(
  post: (request: Request) => Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  const page = await bundlePage();
  const html =
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
  const server = createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host}`;
    const reply = async () => {
      if (incoming.method === 'POST' && incoming.url === '/api/chat') {
        return send(await post(await toRequest(incoming, origin)), outgoing);
      }
      const [type, body] =
        incoming.url === '/page.js' ? ['text/javascript', page] : ['text/html', html];
      outgoing.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body);
    };
    reply().catch((error: unknown) => {
      outgoing.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
