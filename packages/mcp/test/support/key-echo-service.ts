import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A catalog service that puts the caller's key into every answer, as a careless one might. */
export interface KeyEchoService {
  baseUrl: string;
  mcpUrl: string;
  close(): Promise<void>;
}

function keyOf(request: IncomingMessage): string {
  const header = request.headers['x-api-key'] ?? request.headers.authorization ?? '';
  return String(header).replace(/^Bearer /, '');
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function catalogAnswer(id: unknown, key: string) {
  const price = { amount: 4200, currency: 'USD' };
  const product = {
    id: 'prod_echo',
    title: `Echo shoe for ${key}`,
    description: { plain: `Made for ${key}` },
    price_range: { min: price, max: price },
    variants: [
      {
        id: 'var_echo',
        title: 'One size',
        description: { plain: 'One size' },
        price,
        url: 'https://shop.example/buy/echo',
      },
    ],
  };
  const structuredContent = { products: [product] };
  const result = {
    content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
    structuredContent,
  };
  return { jsonrpc: '2.0', id, result };
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const key = keyOf(request);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (request.method === 'POST' && path === '/ucp/mcp') {
    const rpc = JSON.parse(await bodyOf(request)) as { id?: unknown };
    return json(200, catalogAnswer(rpc.id, key), { 'x-ucp-auth-tier': 'token' });
  }
  if (request.method === 'GET' && path === '/api/v1/websites/search') {
    // In upper case too, as a proxy that changes letter case might send it back.
    const website = {
      id: 'web_echo',
      url: 'https://shop.example',
      name: `Shop of ${key}`,
      note: `KEY ${key.toUpperCase()}`,
    };
    return json(200, { websites: [website] });
  }
  await bodyOf(request);
  json(404, { detail: `No collection here for key ${key}` });
}

/** Starts the key-echoing service on loopback. */
export async function startKeyEchoService(): Promise<KeyEchoService> {
  const server = createServer((request, response) => {
    answer(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    mcpUrl: `http://127.0.0.1:${port}/ucp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
