import {
  AuthenticationError,
  CatalogClient,
  type CatalogClientOptions,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterEach, describe, expect, it } from 'vitest';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

async function setUp(
  emulatorOptions: Parameters<typeof startEmulator>[0] = {},
  clientOptions: CatalogClientOptions = {},
) {
  emulator = await startEmulator(emulatorOptions);
  return new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
    ...clientOptions,
  });
}

const SEARCH_ROUTE = 'GET /v1/websites/search';

describe('websites.search against the emulator', () => {
  it('returns websites with their fields', async () => {
    const client = await setUp();
    const { websites } = await client.websites.search({ query: 'shoes', limit: 3 });
    expect(websites.length).toBeGreaterThan(0);
    expect(websites.length).toBeLessThanOrEqual(3);
    for (const website of websites) {
      expect(website).toEqual(
        expect.objectContaining({ id: expect.any(String), url: expect.any(String) }),
      );
    }
  });

  it('an unknown key is a 401 AuthenticationError with reason invalid', async () => {
    await setUp();
    const invalid = new CatalogClient({ apiKey: emulator.keys.invalid, baseUrl: emulator.baseUrl });
    const error = await invalid.websites.search({ query: 'shoes' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, reason: 'invalid' });
  });

  it('exhausted credits are a 402 with reason credits_exhausted and no challenge', async () => {
    await setUp();
    const broke = new CatalogClient({
      apiKey: emulator.keys.creditsExhausted,
      baseUrl: emulator.baseUrl,
    });
    const error = await broke.websites.search({ query: 'shoes' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toMatchObject({ status: 402, reason: 'credits_exhausted', challenges: [] });
  });

  it('a machine-payment 402 exposes the parsed WWW-Authenticate challenges', async () => {
    await setUp();
    const payer = new CatalogClient({
      apiKey: emulator.keys.paymentRequired,
      baseUrl: emulator.baseUrl,
    });
    const error = (await payer.websites
      .search({ query: 'shoes' })
      .catch((caught) => caught)) as PaymentRequiredError;
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.reason).toBe('payment_challenge');
    expect(error.challenges.length).toBeGreaterThan(0);
    for (const challenge of error.challenges) {
      expect(challenge.scheme.toLowerCase()).toBe('payment');
      expect(challenge.params).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          method: expect.any(String),
          request: expect.any(String),
        }),
      );
    }
    expect(error.headers['www-authenticate']).toBeDefined();
  });

  it('an unknown category is a 422 ValidationError with { loc, msg, type }', async () => {
    const client = await setUp();
    const error = (await client.websites
      .search({ query: 'shoes', category_ids: ['no-such-category'] })
      .catch((caught) => caught)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues[0]).toEqual(
      expect.objectContaining({
        loc: expect.any(Array),
        msg: expect.any(String),
        type: expect.any(String),
      }),
    );
    expect(error.message).toContain('no-such-category');
  });

  it('a daily rate limit is a 429 RateLimitError with Retry-After, surfaced without sleeping', async () => {
    const client = await setUp({ rateLimits: { rest: 1 } });
    await client.websites.search({ query: 'shoes' });
    const started = Date.now();
    const error = (await client.websites
      .search({ query: 'shoes' })
      .catch((caught) => caught)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.resetsAt?.getUTCHours()).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(emulator.stats.count(SEARCH_ROUTE)).toBe(2);
  });

  it('a 500 is retried up to maxRetries, then a ServerError', async () => {
    const client = await setUp(
      { faults: { routes: [SEARCH_ROUTE], status: 500 } },
      { maxRetries: 2 },
    );
    await expect(client.websites.search({ query: 'shoes' })).rejects.toBeInstanceOf(ServerError);
    expect(emulator.stats.count(SEARCH_ROUTE)).toBe(3);
  });

  it('a transient 503 with Retry-After is retried and the call succeeds', async () => {
    const client = await setUp({
      faults: { routes: [SEARCH_ROUTE], status: 503, retryAfterSeconds: 0, times: 1 },
    });
    await expect(client.websites.search({ query: 'shoes' })).resolves.toHaveProperty('websites');
    expect(emulator.stats.count(SEARCH_ROUTE)).toBe(2);
  });

  it('a dropped connection is retried for a search', async () => {
    const client = await setUp({ faults: { routes: [SEARCH_ROUTE], drop: 'after', times: 1 } });
    await expect(client.websites.search({ query: 'shoes' })).resolves.toHaveProperty('websites');
    expect(emulator.stats.count(SEARCH_ROUTE)).toBe(2);
  });

  it('a slow answer ends in TimeoutError', async () => {
    const client = await setUp({ faults: { routes: [SEARCH_ROUTE], latencyMs: 2_000 } });
    await expect(
      client.websites.search({ query: 'shoes' }, { timeoutMs: 200 }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('conversations.create against the emulator', () => {
  it('returns the conversation record', async () => {
    const client = await setUp();
    const conversation = await client.conversations.create();
    expect(conversation).toEqual(expect.objectContaining({ conversation_id: expect.any(String) }));
  });

  it('is not resent when the connection drops after the service created it', async () => {
    const route = 'POST /v1/conversations';
    const client = await setUp(
      { faults: { routes: [route], drop: 'after', times: 1 } },
      { maxRetries: 3 },
    );
    await expect(client.conversations.create()).rejects.toMatchObject({
      code: 'connection',
      requestSent: true,
    });
    expect(emulator.stats.count(route)).toBe(1);
    expect(emulator.state.conversations.size).toBe(1);
  });
});

describe('collections against the emulator', () => {
  it("another user's collection is a 404", async () => {
    await setUp();
    const other = new CatalogClient({ apiKey: emulator.keys.otherUser, baseUrl: emulator.baseUrl });
    await expect(
      other.collections.update('col_summer', { name: 'Mine now' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
