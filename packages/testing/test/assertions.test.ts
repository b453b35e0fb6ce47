import { CatalogClient } from '@catalogkit/core';
import { startEmulator } from '@catalogkit/emulator';
import { buyLinkReference } from '@catalogkit/links';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertBuyLinksVerified,
  assertChangesApproved,
  assertKeyNotShown,
  assertNoChangeAppliedTwice,
  assertNotToldToRetry,
  assertRequestsPerAnswer,
  assertTokensMintedPerSession,
  CatalogAssertionError,
  type CatalogService,
  type ModelView,
  snapshotCollections,
  startCatalogService,
  startOpenAiStandIn,
} from '../src/index.js';

let service: CatalogService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** The error an assertion throws (fails the test when it throws none). */
function thrown(assertion: () => void): CatalogAssertionError {
  try {
    assertion();
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogAssertionError);
    expect(error).toBeInstanceOf(Error);
    return error as CatalogAssertionError;
  }
  throw new Error('the assertion did not throw');
}

/** A clause as the wire takes it: every selector list present. */
const clause = (selectors: Record<string, string[]>) => ({
  brand_ids: [],
  website_ids: [],
  category_ids: [],
  product_ids: [],
  ...selectors,
});

async function patchSummer(target: CatalogService, product: string): Promise<number> {
  const response = await fetch(`${target.clientOptions.baseUrl}/v1/collections/col_summer`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-api-key': target.clientOptions.apiKey },
    body: JSON.stringify({ add_clauses: [clause({ product_ids: [product] })] }),
  });
  return response.status;
}

describe('assertNoChangeAppliedTwice', () => {
  it('passes for a change applied once, fails for the same change applied twice', async () => {
    service = await startCatalogService();
    expect(await patchSummer(service, 'prod_twice')).toBe(200);
    assertNoChangeAppliedTwice(service);
    expect(await patchSummer(service, 'prod_twice')).toBe(200);
    const error = thrown(() => assertNoChangeAppliedTwice(service!));
    expect(error.assertion).toBe('assertNoChangeAppliedTwice');
    expect(error.message).toContain(
      'collection col_summer holds the clause "product_ids prod_twice" 2 times (0 before)',
    );
  });

  it('on a bare emulator, against a snapshot taken before', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const before = snapshotCollections(emulator.state.collections);
      for (let i = 0; i < 2; i++) {
        await fetch(`${emulator.baseUrl}/v1/collections/col_gifts`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-api-key': emulator.keys.valid },
          body: JSON.stringify({ add_clauses: [clause({ brand_ids: ['b2', 'b1'] })] }),
        });
      }
      expect(thrown(() => assertNoChangeAppliedTwice(emulator, before)).problems).toEqual([
        'collection col_gifts holds the clause "brand_ids b1, b2" 2 times (0 before): a change was applied 2 times',
      ]);
    } finally {
      await emulator.close();
    }
  });
});

describe('assertChangesApproved', () => {
  it('fails when an update reached the service without an approval', async () => {
    service = await startCatalogService();
    await patchSummer(service, 'prod_x');
    expect(thrown(() => assertChangesApproved(service!, [])).message).toMatch(
      /update_collection reached the service 1 time but the shopper approved 0/,
    );
    assertChangesApproved(service, [
      {
        toolName: 'update_collection',
        input: { collection_id: 'col_summer', add_clauses: [{ product_ids: ['prod_x'] }] },
        approved: true,
      },
    ]);
    const denied = [
      { toolName: 'update_collection', input: { collection_id: 'col_summer' }, approved: false },
    ];
    thrown(() => assertChangesApproved(service!, denied));
  });
});

describe('assertKeyNotShown', () => {
  const KEY = 'ck_live_Secret7f3a9c2e4b6d';

  it('finds the key in any case and URL-encoded, and never prints it', async () => {
    const standIn = await startOpenAiStandIn(['ok']);
    try {
      await fetch(`${standIn.baseURL}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({
          messages: [{ role: 'tool', content: `title for ${KEY.toUpperCase()}` }],
        }),
      });
      const error = thrown(() => assertKeyNotShown(KEY, { model: standIn }));
      expect(error.problems).toEqual(['the secret ck_l… (26 characters) is in model request 1']);
      expect(error.message.toLowerCase()).not.toContain(KEY.toLowerCase());
    } finally {
      await standIn.close();
    }
    const encoded = `https://shop.test/?ref=${encodeURIComponent(`${KEY}/x`)}`;
    expect(thrown(() => assertKeyNotShown([`${KEY}/x`], { answer: encoded })).problems).toEqual([
      'the secret ck_l… (28 characters) is in the final answer',
    ]);
    expect(
      thrown(() => assertKeyNotShown(KEY, { ui: [{ parts: [{ text: KEY }] }] })).problems,
    ).toEqual(['the secret ck_l… (26 characters) is in what the browser received']);
    assertKeyNotShown(KEY, { answer: 'Here are shoes ([redacted])', ui: { parts: [] }, model: [] });
  });

  it('given a service, looks for its key and the conversation tokens it minted', async () => {
    service = await startCatalogService();
    const { apiKey, baseUrl } = service.clientOptions;
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const conversation = (await (
      await fetch(`${baseUrl}/v1/conversations`, { method: 'POST', headers, body: '{}' })
    ).json()) as {
      conversation_id: string;
    };
    const minted = (await (
      await fetch(`${baseUrl}/v1/conversations/${conversation.conversation_id}/tokens`, {
        method: 'POST',
        headers,
        body: '{}',
      })
    ).json()) as { token: string };
    thrown(() => assertKeyNotShown(service!, { answer: `key ${apiKey}` }));
    thrown(() => assertKeyNotShown(service!, { answer: `token ${minted.token}` }));
    assertKeyNotShown(service, { answer: 'nothing secret' });
  });
});

describe('assertBuyLinksVerified', () => {
  it('accepts true buy links only, and flags references left unresolved', async () => {
    service = await startCatalogService();
    const client = new CatalogClient({ ...service.clientOptions });
    const { result } = await client.catalog.search({
      query: 'running shoes',
      pagination: { limit: 2 },
    });
    const link = result.products[0]!.variants[0]!.url!;
    expect(service.buyLinkSources()).toHaveLength(1);

    assertBuyLinksVerified(`Buy it here: ${link}`, service, { atLeast: 1 });
    const miscopied = `Buy it here: ${link.slice(0, 30)}${link.slice(31)}`;
    // A miscopy is reported, never repaired (links are compared byte for byte).
    expect(thrown(() => assertBuyLinksVerified(miscopied, service!)).problems).toEqual([
      `${JSON.stringify(`${link.slice(0, 30)}${link.slice(31)}`)} is not a buy link the catalog gave`,
    ]);
    expect(
      thrown(() => assertBuyLinksVerified(`<a href="${link}">Buy</a>`, service!)).problems[0],
    ).toMatch(/^raw HTML "<a href=.*" is in the answer/);
    expect(
      thrown(() => assertBuyLinksVerified('Buy: https://evil.example/buy', service!)).problems,
    ).toEqual(['"https://evil.example/buy" is not a buy link the catalog gave']);
    const reference = buyLinkReference(link);
    expect(thrown(() => assertBuyLinksVerified(`Buy: ${reference}`, service!)).problems).toEqual([
      `${reference} is shown where its buy link belongs: the application did not resolve it (finalizeBuyLinks)`,
    ]);
    expect(
      thrown(() => assertBuyLinksVerified('No links.', service!, { atLeast: 1 })).problems,
    ).toEqual(['the answer gives 0 verified buy links, expected at least 1']);
    // Only what the service really gave counts: a link from another source is not trusted.
    thrown(() => assertBuyLinksVerified(`Buy: ${link}`, []));
  });

  it('keeps the problems short when an answer pastes raw results (links run into JSON)', async () => {
    service = await startCatalogService();
    const client = new CatalogClient({ ...service.clientOptions });
    const { result } = await client.catalog.search({ query: 'running shoes' });
    const pasted = `Here you go. Details: ${JSON.stringify(result.products)}`;
    const { problems } = thrown(() => assertBuyLinksVerified(pasted, service!));

    // Three links named, each at most a few hundred characters, the rest counted.
    expect(problems).toHaveLength(4);
    for (const problem of problems.slice(0, 3)) {
      expect(problem, problem).toMatch(
        /^"…?https?:\/\/\S+"( \(a link run into \d+ characters of other text\))? is not a buy link the catalog gave$/,
      );
      expect(problem.length).toBeLessThan(300);
    }
    expect(problems[3]).toMatch(/^\d+ more links or HTML are not buy links the catalog gave$/);
    // A buy link alone is quoted whole.
    const link = result.products[0]!.variants[0]!.url!;
    const miscopied = thrown(() => assertBuyLinksVerified(`${link}x`, service!)).problems;
    expect(miscopied[0]).toContain(JSON.stringify(`${link}x`));
  });
});

describe('assertTokensMintedPerSession', () => {
  it('fails when a conversation minted more tokens than allowed', async () => {
    service = await startCatalogService();
    const { apiKey, baseUrl } = service.clientOptions;
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const created = await fetch(`${baseUrl}/v1/conversations`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    const { conversation_id: id } = (await created.json()) as { conversation_id: string };
    const mint = () =>
      fetch(`${baseUrl}/v1/conversations/${id}/tokens`, { method: 'POST', headers, body: '{}' });
    expect((await mint()).status).toBe(201);
    assertTokensMintedPerSession(service);
    expect((await mint()).status).toBe(201);
    expect(thrown(() => assertTokensMintedPerSession(service!)).problems).toEqual([
      `conversation ${id} minted 2 tokens (at most 1 expected): tokens are minted per turn instead of reused`,
    ]);
    assertTokensMintedPerSession(service, { max: 2 });
  });
});

describe('assertRequestsPerAnswer', () => {
  it('counts the requests the service and the model received', async () => {
    service = await startCatalogService();
    const standIn = await startOpenAiStandIn(['ok']);
    try {
      const client = new CatalogClient({ ...service.clientOptions });
      for (let i = 0; i < 3; i++) await client.websites.search({ query: 'running' });
      await fetch(`${standIn.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
      assertRequestsPerAnswer({
        service,
        maxServiceRequests: 3,
        model: standIn,
        maxModelRequests: 1,
      });
      expect(
        thrown(() =>
          assertRequestsPerAnswer({
            service: service!,
            maxServiceRequests: 2,
            model: standIn,
            maxModelRequests: 0,
          }),
        ).problems,
      ).toEqual([
        '3 requests to the catalog service for 1 answer (at most 2 per answer)',
        '1 request to the model for 1 answer (at most 0 per answer)',
      ]);
      assertRequestsPerAnswer({ service, maxServiceRequests: 2, answers: 2 });
    } finally {
      await standIn.close();
    }
  });
});

describe('assertNotToldToRetry', () => {
  const view = (instructions: string, updateText?: string): ModelView => ({
    request: 1,
    instructions,
    userMessages: [],
    calls: [],
    results:
      updateText === undefined
        ? []
        : [{ callId: 'c', name: 'update_collection', text: updateText, isError: true }],
    tools: [],
    stream: false,
  });

  it('fails when a change result or the instructions invite a retry', () => {
    expect(
      thrown(() => assertNotToldToRetry([view('', 'The update failed. Please try again.')]))
        .problems,
    ).toEqual([
      'the update_collection result the model read invites a repeat: "Please try again."',
    ]);
    expect(
      thrown(() => assertNotToldToRetry([view('Be brief. If a tool call fails, retry it.')]))
        .problems,
    ).toEqual([
      'the instructions tell the model to retry failures: "If a tool call fails, retry it."',
    ]);
  });

  it('passes catalogkit’s own texts and instructions that forbid a retry', () => {
    assertNotToldToRetry([
      view(
        'When a change is not approved, do not retry it. If a search finds nothing, try again with other words.',
        'The change may have been applied, so its outcome is unknown. Do not call this tool again with the same change: it could be applied twice.',
      ),
      view(
        '',
        'Invalid arguments: collection_id: required. Fix these fields and call the tool again.',
      ),
    ]);
  });
});

describe('startCatalogService', () => {
  it('refuses a key it does not know, naming the option', async () => {
    await expect(startCatalogService({ key: 'admin' as 'valid' })).rejects.toThrow(
      'key must be one of valid, otherUser, creditsExhausted, paymentRequired, invalid, got admin',
    );
  });
});
