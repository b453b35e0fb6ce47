/*
 * What createTurnSender sends as the bearer token: found by the validation red team after
 * issue 28 (finding F10, the turn sender called directly).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTurnSender } from '../src/conversations/index.js';
import { CatalogClient, RequestValidationError } from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ turn_id: 't1', reply: { role: 'assistant', content: 'hi' } }));
  });
});
afterEach(() => server.close());

const sender = () =>
  createTurnSender({ client: new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin }) });

describe('createTurnSender', () => {
  it.each([' tok_padded ', 'tok\nInjected: 1', 'tok\u0000', ''])(
    'refuses the token %j before sending, naming the field and never quoting it',
    async (token) => {
      const error = await sender()({ conversationId: 'c1', token, message: 'hello' }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toBe('token');
      if (token.trim() !== '') expect((error as Error).message).not.toContain(token.trim());
      expect(server.requests).toHaveLength(0);
    },
  );

  it('sends a well-formed token as given', async () => {
    await sender()({ conversationId: 'c1', token: 'tok_abc.123', message: 'hello' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer tok_abc.123');
  });
});
