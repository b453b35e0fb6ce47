import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient, RequestValidationError } from '../src/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// `pnpm fuzz` raises the number of runs with CATALOGKIT_FUZZ_RUNS.
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 200;

/*
 * Any collection id, from the client or from a model through the tool: either refused
 * before sending, naming collection_id, or the PATCH reaches exactly
 * `/v1/collections/<the id, percent-encoded>` (issue 23: `.` and `..` patched other paths).
 */

let service: TestServer;
let client: CatalogClient;
let tool: AnyCatalogTool;

beforeAll(async () => {
  service = await startTestServer((_request, response) =>
    sendJson(response, 200, { collection_id: 'x' }),
  );
  client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: `${service.origin}/api` });
  const [update] = createCatalogToolList({
    clientOptions: { apiKey: TEST_KEY, baseUrl: `${service.origin}/api` },
    include: ['update_collection'],
  }) as AnyCatalogTool[];
  if (!update) throw new Error('no update_collection tool');
  tool = update;
});
afterAll(() => service.close());

/** Characters that matter to URL paths and parsers, and the odd ones around them. */
const TRICKY = [
  '.',
  '..',
  '/',
  '\\',
  '?',
  '#',
  '%',
  '%2e',
  '%2F',
  '%00',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u200b',
  '\uff0e',
  '\uD800',
  ';',
  ':',
  '@',
  '&',
  '=',
  '+',
  '$',
  ',',
  '~',
  "'",
  'é',
  '👟',
  'col_summer',
];

/** Ids built from the tricky pieces, and arbitrary strings (lone surrogates included). */
const ids = fc.oneof(
  fc
    .array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.join('')),
  fc.constantFrom(...TRICKY),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
);

/** The failure of a call, or undefined when it succeeded. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Checks one attempt: refused naming collection_id and nothing sent, or sent to the one path. */
function expectRefusedOrExact(id: string, error: unknown, sentBefore: number): void {
  if (error !== undefined) {
    expect(error).toBeInstanceOf(RequestValidationError);
    const paths = (error as RequestValidationError).issues.map((issue) => issue.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((path) => path === 'collection_id')).toBe(true);
    expect(service.requests.length).toBe(sentBefore);
    return;
  }
  expect(service.requests.length).toBe(sentBefore + 1);
  const url = service.requests.at(-1)?.url ?? '';
  expect(url).toBe(`/api/v1/collections/${encodeURIComponent(id)}`);
  const segment = url.slice('/api/v1/collections/'.length);
  // One segment that decodes back to the id, and never a dot segment.
  expect(segment).not.toMatch(/^(\.|\.\.|%2e|%2e%2e|\.%2e|%2e\.)$/i);
  expect(decodeURIComponent(segment)).toBe(id);
}

describe('collection_id fuzz: refused, or exactly /v1/collections/<encoded id>', () => {
  it('client.collections.update', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(ids, async (id) => {
        const sentBefore = service.requests.length;
        const error = await failureOf(client.collections.update(id, { name: 'Winter' }));
        expectRefusedOrExact(id, error, sentBefore);
      }),
      { numRuns: RUNS },
    );
  });

  it('the update_collection tool (the id as the model sent it, trimmed)', {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(ids, fc.string({ maxLength: 8 }), async (id, name) => {
        const sentBefore = service.requests.length;
        // A unique name, so the tool's memory never answers a repeat without sending.
        const input = { collection_id: id, name: `n${sentBefore}${name}` };
        const error = await failureOf(tool.execute(input as never));
        if (error === undefined) {
          // The tool trims what the model sent, as documented: the trimmed id is what is sent.
          expectRefusedOrExact(id.trim(), error, sentBefore);
        } else if (error instanceof RequestValidationError) {
          expect(service.requests.length).toBe(sentBefore);
        } else {
          throw error;
        }
      }),
      { numRuns: RUNS },
    );
  });
});
