import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// Red team R1: text the server chose (a Location path, a Content-Type) went into error
// messages without the redactor. A proxy redirecting to `/keys/<key>/…`, or copying the key
// into a response header, put the key in `message`, `stack` and `inspect` (and in the
// `cause` the tool adapters wrap).

type Mode = 'drop' | 'bad-location' | 'other-origin' | 'text type' | 'json-ish type';
let mode: Mode = 'drop';
let server: TestServer;
let client: CatalogClient;

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const key = String(request.headers['x-api-key'] ?? '');
    if (mode.endsWith('type')) {
      const type = mode === 'text type' ? `text/${key}` : `application/${key}+json`;
      response.writeHead(200, { 'content-type': type });
      return response.end('{not json');
    }
    // First hop: a same-origin redirect to a path holding the key (what the server chose).
    if (!request.url.includes(key)) {
      response.writeHead(307, { location: `/keys/${key}${request.url}` });
      return response.end();
    }
    if (mode === 'drop') return response.socket?.destroy();
    const location = mode === 'bad-location' ? 'http://[::1' : `http://${key}.example/x/${key}`;
    response.writeHead(302, { location });
    return response.end();
  });
  client = new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: server.origin,
    mcpUrl: `${server.origin}/mcp`,
    maxRetries: 0,
  });
});
afterAll(() => server.close());

const calls = {
  'REST websites.search': () => client.websites.search({ query: 'nike' }),
  'MCP catalog.search': () => client.catalog.search({ query: 'shoe' }),
};

describe('error messages hold only the client’s words and redacted text', () => {
  const modes: Mode[] = ['drop', 'bad-location', 'other-origin', 'text type', 'json-ish type'];
  for (const each of modes) {
    for (const [name, call] of Object.entries(calls)) {
      it(`${name}, ${each}`, async () => {
        mode = each;
        const error = (await call().then(
          () => new Error('no error'),
          (caught: unknown) => caught,
        )) as Error;
        expect(error.message).not.toBe('no error');
        const everything = [
          String(error),
          error.stack,
          inspect(error, { showHidden: true, depth: 20 }),
        ]
          .join('\n')
          .toLowerCase();
        expect(everything).not.toContain(TEST_KEY.toLowerCase());
        // The path named is the one the client built; a kept content type is redacted.
        if (!each.endsWith('type')) expect(error.message).not.toContain('/keys/');
        if (each === 'text type') expect(error.message).toContain('text/[redacted]');
      });
    }
  }
});
