import { catalogPayload, rpcIdOf } from './fixtures.js';
import { sendJson, startTestServer, type TestServer } from './test-server.js';

/**
 * A loopback stand-in of the service that accepts every tool call and records it: an empty
 * website search, a collection update echoing `col_1`, a catalog search over JSON-RPC.
 */
export function startToolService(): Promise<TestServer> {
  return startTestServer((request, response) => {
    if (request.url.startsWith('/v1/websites/search')) {
      return sendJson(response, 200, { websites: [] });
    }
    if (request.method === 'PATCH') {
      return sendJson(response, 200, { collection_id: 'col_1', name: 'Summer', clauses: [] });
    }
    sendJson(
      response,
      200,
      {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        result: { structuredContent: catalogPayload() },
      },
      { 'x-ucp-auth-tier': 'token' },
    );
  });
}
