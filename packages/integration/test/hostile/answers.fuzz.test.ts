import { CatalogClient, CatalogError, RateLimitError } from '@catalogkit/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns } from './fuzz-runs.js';
import {
  catalogAnswer,
  type HostileServer,
  rpcIdOf,
  startHostileServer,
} from './hostile-server.js';

const KEY = 'ck_hostile_3f9a2c7e5b1d4a60';
const RUNS = fuzzRuns(40);

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

/** One generated answer: any status, any of the headers that steer the client, any body. */
interface Answer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  location: string | null;
  encoding: string | null;
  body: string;
  /** Bytes per write, so bodies arrive split at arbitrary points. */
  split: number;
}

const headerText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('99999999999999999999', '1e300', '-1', 'Sat, 01 Jan 275760 00:00:00 GMT'),
  fc.stringMatching(/^[0-9]{1,25}$/),
);

const bodyText = (rpcId: unknown) =>
  fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 3 }),
    fc.constant(JSON.stringify(catalogAnswer(rpcId))),
    fc.nat({ max: 200 }).map((cut) => JSON.stringify(catalogAnswer(rpcId)).slice(0, cut)),
    fc.constant(`event: message\ndata: ${JSON.stringify(catalogAnswer(rpcId))}\n\n`),
    fc
      .nat({ max: 300 })
      .map((cut) => `data: ${JSON.stringify(catalogAnswer(rpcId))}\n\n`.slice(0, cut)),
    fc.constant(JSON.stringify({ detail: [{ loc: ['body', 3], msg: 'no', type: 't' }, 7] })),
  );

const answers = fc.record<Answer>({
  status: fc.constantFrom(
    200,
    201,
    204,
    301,
    302,
    303,
    307,
    400,
    401,
    402,
    404,
    408,
    422,
    429,
    500,
    503,
  ),
  contentType: fc.constantFrom(
    null,
    'application/json',
    'text/event-stream',
    'text/html',
    'application/problem+json',
  ),
  retryAfter: fc.option(headerText),
  location: fc.option(fc.oneof(headerText, fc.constant('http://[::1'), fc.webUrl())),
  encoding: fc.constantFrom(null, null, null, 'gzip', 'br', 'identity', 'x-unknown'),
  body: bodyText(1),
  split: fc.integer({ min: 1, max: 64 }),
});

function serve(answer: Answer) {
  server.handle((request, response) => {
    const headers: Record<string, string> = {};
    if (answer.contentType) headers['content-type'] = answer.contentType;
    if (answer.retryAfter !== null) headers['retry-after'] = answer.retryAfter;
    if (answer.location !== null) headers.location = answer.location;
    if (answer.encoding !== null) headers['content-encoding'] = answer.encoding;
    headers['x-ucp-auth-tier'] = 'token';
    try {
      response.writeHead(answer.status, headers);
    } catch {
      // A generated header value Node refuses to send: send none of them.
      response.writeHead(answer.status);
    }
    // A followed redirect comes back as a GET without a body: keep id 1 then.
    const rpcId = request.body ? rpcIdOf(request.body) : 1;
    const body = answer.body.replaceAll('"id":1', `"id":${JSON.stringify(rpcId)}`);
    const bytes = Buffer.from(body);
    for (let offset = 0; offset < bytes.length; offset += answer.split) {
      response.write(bytes.subarray(offset, offset + answer.split));
    }
    response.end();
  });
}

function client() {
  return new CatalogClient({
    apiKey: KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries: 1,
    maxRetryDelayMs: 0,
    timeoutMs: 10_000,
  });
}

/** A failure must be one of ours, with a message that never carries the key. */
function checkFailure(error: unknown) {
  expect(CatalogError.is(error), String(error)).toBe(true);
  expect((error as Error).message).not.toContain(KEY);
  if (error instanceof RateLimitError && error.resetsAt !== undefined) {
    expect(Number.isNaN(error.resetsAt.getTime())).toBe(false);
  }
}

describe('any answer is a result or a CatalogError, never a crash', () => {
  it.each(['websites.search', 'collections.update', 'catalog.search'])(
    '%s',
    async (call) => {
      await fc.assert(
        fc.asyncProperty(answers, async (answer) => {
          serve(answer);
          const c = client();
          const promise =
            call === 'websites.search'
              ? c.websites.search({ query: 'nike' })
              : call === 'collections.update'
                ? c.collections.update('col_summer', { name: 'x' })
                : c.catalog.search({ query: 'shoes' });
          await promise.then(() => undefined, checkFailure);
        }),
        { numRuns: RUNS },
      );
    },
    20_000 + RUNS * 250,
  );
});
