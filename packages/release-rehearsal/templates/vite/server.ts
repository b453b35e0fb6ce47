// Our own server for the Vite page (run as `node server.ts`: Node strips the types). It serves
// the built page from dist/, and with the API key, which never reaches the browser, creates
// the conversation (POST /api/conversation) and mints its tokens (POST /api/token).
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogClient } from '@catalogkit/core';
import { createHttpTokenMinter } from '@catalogkit/core/conversations';

const baseUrl = process.env.CATALOG_BASE_URL ?? '';
const client = new CatalogClient({ apiKey: process.env.CATALOG_API_KEY ?? '', baseUrl });
const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript' };

async function readJson(request: IncomingMessage): Promise<{ conversationId?: string }> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text || '{}') as { conversationId?: string };
}

async function mint(conversationId: string) {
  return createHttpTokenMinter({ client, conversationId })({ signal: AbortSignal.timeout(10_000) });
}

const server = createServer((request, response) => {
  const answer = async (): Promise<[number, string, string]> => {
    const url = request.url ?? '/';
    if (request.method === 'POST' && url === '/api/conversation') {
      // The contract leaves the answer open: the id is checked, not assumed.
      const { conversation_id: conversationId } = await client.conversations.create({});
      if (typeof conversationId !== 'string') throw new Error('no conversation_id');
      const body = { conversationId, serviceUrl: baseUrl, minted: await mint(conversationId) };
      return [200, 'application/json', JSON.stringify(body)];
    }
    if (request.method === 'POST' && url === '/api/token') {
      const { conversationId } = await readJson(request);
      if (!conversationId) return [400, 'text/plain', 'conversationId missing'];
      return [200, 'application/json', JSON.stringify(await mint(conversationId))];
    }
    // Vite's output: index.html and assets/<name>-<hash>.js.
    const file = url === '/' ? 'index.html' : url.slice(1);
    if (!/^(index\.html|assets\/[\w.-]+\.js)$/.test(file)) return [404, 'text/plain', 'not found'];
    const type = TYPES[file.split('.').at(-1) ?? ''] ?? 'text/plain';
    return [200, type, await readFile(new URL(`./dist/${file}`, import.meta.url), 'utf8')];
  };
  answer().then(
    ([status, type, body]) => response.writeHead(status, { 'content-type': type }).end(body),
    (error: unknown) => response.writeHead(500).end(String(error)),
  );
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
