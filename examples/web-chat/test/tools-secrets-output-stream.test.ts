import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../src/scripted-model.js';
import { startWebChat } from '../src/server.js';
import { chunksOf, Shopper, userMessage } from './support/api.js';
import { PAGE_DIR, SECRET_KEY, startTestApp, type TestApp } from './support/app.js';

// A service that echoes the key inside a successful search result: the model's text was
// already scrubbed, but the raw tool output streamed to the browser was not. Here a small
// proxy in front of the emulator plays that service.

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A proxy to `target` that writes the `x-api-key` it receives into every product title and a member name. */
async function startEchoingProxy(target: string): Promise<{ url: string; echoed: () => number }> {
  let echoed = 0;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const key = String(request.headers['x-api-key'] ?? '');
    const upstream = await fetch(new URL(request.url ?? '/', target), {
      method: request.method ?? 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': key,
      },
      body: Buffer.concat(chunks),
    });
    let text = await upstream.text();
    if (key && text.includes('"title":"')) {
      echoed++;
      text = text
        .replaceAll('"title":"', `"title":"for ${key.toUpperCase()} `)
        .replaceAll('"products":[', `"debug_${key}":"${key}","products":[`);
    }
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      ...(upstream.headers.get('x-ucp-auth-tier')
        ? { 'x-ucp-auth-tier': upstream.headers.get('x-ucp-auth-tier') as string }
        : {}),
    });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, echoed: () => echoed };
}

describe('the /api/chat stream', () => {
  it('carries no key that the service echoed inside a tool result, and still carries the result', async () => {
    const app: TestApp = await startTestApp({ mcpResponse: 'json' });
    closers.push(() => app.close());
    const proxy = await startEchoingProxy(app.emulator.mcpUrl.replace(/\/ucp$/, '/'));
    await app.chat.close();
    const chat = await startWebChat({
      catalog: {
        apiKey: SECRET_KEY,
        baseUrl: app.emulator.baseUrl,
        mcpUrl: `${proxy.url}/ucp`,
      },
      model: createScriptedModel({ wordDelayMs: 0 }),
      pageDir: PAGE_DIR,
    });
    closers.push(() => chat.close());

    const shopper = new Shopper(chat.url);
    const response = await shopper.post('/api/chat', {
      id: 'chat_1',
      messages: [userMessage('u1', 'trail running shoes')],
    });
    expect(response.status).toBe(200);
    const body = await response.clone().text();
    const chunks = await chunksOf(response);
    // The service did echo it, and the result did reach the page.
    expect(proxy.echoed()).toBeGreaterThan(0);
    expect(body.toLowerCase()).not.toContain(SECRET_KEY.toLowerCase());
    const output = chunks.find((chunk) => chunk.type === 'tool-output-available');
    expect(JSON.stringify(output)).toContain('for [redacted] ');
  });
});
