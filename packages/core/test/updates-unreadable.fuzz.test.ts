import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// `pnpm fuzz` raises the number of runs with CATALOGKIT_FUZZ_RUNS.
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 150;

/*
 * A collection service that applies every PATCH, then answers any 2xx: any status, content
 * type and body, readable or not (issue 23: `200 {"ok":true}` made the tool say "try
 * again", and the repeat applied the change twice). Property: a model that sends the same
 * add twice, whose first answer is unreadable, applies it once, and is never told to try again.
 */

interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
}

let answer: Answer = { status: 200, contentType: 'application/json', body: '{}' };
let applied = 0;
let service: TestServer;

function reply(response: ServerResponse): void {
  const headers = answer.contentType === undefined ? {} : { 'content-type': answer.contentType };
  response.writeHead(answer.status, headers);
  // 204 and 205 carry no body; node drops it anyway.
  response.end(answer.status === 204 || answer.status === 205 ? undefined : answer.body);
}

beforeAll(async () => {
  service = await startTestServer((request, response) => {
    if (request.method === 'PATCH') applied += 1;
    reply(response);
  });
});
afterAll(() => service.close());

const collection = fc.record(
  {
    collection_id: fc.oneof(fc.string(), fc.integer()),
    name: fc.oneof(fc.string(), fc.constant(null)),
    clauses: fc.oneof(fc.constant([]), fc.array(fc.jsonValue(), { maxLength: 2 })),
  },
  { requiredKeys: [] },
);

const bodies = fc.oneof(
  collection.map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.constantFrom('', '{"ok":true}', 'null', '{"collection_id":', '<p>saved</p>', 'OK'),
  fc.string({ maxLength: 20 }),
);

const answers: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(fc.constantFrom(200, 201, 202, 204), fc.integer({ min: 200, max: 299 })),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/problem+json',
    'text/html',
    'text/plain',
    undefined,
  ),
  body: bodies,
});

/** What the model reads of one call. */
async function modelText(tool: AnyCatalogTool, input: unknown): Promise<string> {
  try {
    return tool.toModelOutput((await tool.execute(input as never)) as never);
  } catch (error) {
    return tool.errorToModelOutput(error) ?? `rethrown: ${String(error)}`;
  }
}

describe('update_collection against any 2xx answer', () => {
  it('two identical adds after an unreadable answer apply it once; the model is never told to try again', {
    timeout: 60_000,
  }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(answers, async (generated) => {
        answer = generated;
        // A fresh tool set (and memory) per run, as a new chat would have.
        const [update] = createCatalogToolList({
          clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin },
          include: ['update_collection'],
        }) as AnyCatalogTool[];
        if (!update) throw new Error('no update_collection tool');
        const before = applied;
        const input = {
          collection_id: 'col_1',
          add_clauses: [
            { brand_ids: [], website_ids: [], category_ids: [], product_ids: [`p_${run++}`] },
          ],
        };
        const first = await modelText(update, input);
        const second = await modelText(update, input);
        // Sent again only after an answer was read (the model saw the collection, and asked
        // again); after an unreadable answer the repeat is refused, in any shape.
        expect(applied - before).toBe(first.startsWith('Updated collection') ? 2 : 1);
        for (const text of [first, second]) {
          expect(text).not.toMatch(/try (once )?(more|again)|call the tool again/i);
          expect(text).not.toMatch(/^rethrown/);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
