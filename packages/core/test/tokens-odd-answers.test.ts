import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConversationTokenManager, createHttpTokenMinter } from '../src/conversations/index.js';
import { CatalogClient } from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { type ReceivedRequest, startTestServer, type TestServer } from './support/test-server.js';

/*
 * Red-team findings on conversation tokens (issue 23, second round): a mint service whose
 * `Date` header is odd or contradicts its `expires_at`, an `expires_at` without a UTC
 * offset, and a service whose default life is shorter than the client's. Each POST creates
 * a real token: the manager must not mint one per message, nor hand out an expired one.
 */

const MINUTE = 60_000;

interface Variant {
  /** The `Date` header(s) to send; none when undefined. */
  date?: (now: Date) => string | string[];
  expiresAt?: (expires: Date) => string;
  /** The life granted when the mint asks none. */
  defaultTtlSeconds?: number;
  /** The token minted; `tok_<n>` when undefined. */
  token?: string;
}

let variant: Variant = {};
let mints = 0;
let service: TestServer;

function mint(request: ReceivedRequest, response: ServerResponse) {
  mints += 1;
  const asked = (JSON.parse(request.body || '{}') as { ttl_seconds?: number }).ttl_seconds;
  const now = new Date();
  const expires = new Date(now.getTime() + (asked ?? variant.defaultTtlSeconds ?? 1800) * 1000);
  response.sendDate = false;
  const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
  if (variant.date) headers.date = variant.date(now);
  response.writeHead(201, headers);
  response.end(
    JSON.stringify({
      token: variant.token ?? `tok_${mints}`,
      token_id: `t${mints}`,
      expires_at: (variant.expiresAt ?? ((at: Date) => at.toISOString()))(expires),
    }),
  );
}

beforeAll(async () => {
  service = await startTestServer(mint);
});
afterAll(() => service.close());
beforeEach(() => {
  mints = 0;
  service.requests.length = 0;
});

let manager: ConversationTokenManager | undefined;
afterEach(() => manager?.close());

function managerFor(options: { now?: () => number } = {}): ConversationTokenManager {
  const client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: service.origin });
  manager = new ConversationTokenManager({
    mint: createHttpTokenMinter({ client, conversationId: 'conv_1' }),
    ...(options.now ? { now: options.now } : {}),
  });
  return manager;
}

/** Ten shopper messages, each needing a token. */
async function tenMessages(held: ConversationTokenManager): Promise<void> {
  for (let index = 0; index < 10; index++) await held.getToken();
}

describe('an odd or contradictory Date falls back to the mint without Date', () => {
  const cases: [string, Variant][] = [
    [
      'two Date headers joined by a proxy',
      { date: (now) => [now.toUTCString(), now.toUTCString()] },
    ],
    ['Date: now', { date: () => 'now' }],
    [
      'a Date 2 h ahead of the clock that set expires_at',
      {
        date: (now) => new Date(now.getTime() + 120 * MINUTE).toUTCString(),
      },
    ],
  ];
  for (const [name, odd] of cases) {
    it(`${name}: one mint for ten messages`, async () => {
      variant = odd;
      await tenMessages(managerFor());
      expect(mints).toBe(1);
    });
  }
});

describe('an expires_at without a UTC offset is UTC', () => {
  const naive = (at: Date) => at.toISOString().replace('Z', '');
  let zone: string | undefined;
  beforeEach(() => {
    zone = process.env.TZ;
    // East of UTC: read as local time, a naive expires_at would lie 9 h in the past.
    process.env.TZ = 'Asia/Tokyo';
  });
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  for (const [name, date] of [
    ['without Date', undefined],
    ['with Date', (now: Date) => now.toUTCString()],
  ] as const) {
    it(`${name}: one mint for ten messages, the token's life about 30 min`, async () => {
      variant = { expiresAt: naive, ...(date ? { date } : {}) };
      const held = managerFor();
      await tenMessages(held);
      expect(mints).toBe(1);
      const left = (await held.getTokenInfo()).expiresAt.getTime() - Date.now();
      expect(left).toBeGreaterThan(29 * MINUTE);
      expect(left).toBeLessThanOrEqual(30 * MINUTE);
    });
  }
});

describe('the life counted on is the life asked for', () => {
  it('a service granting 600 s by default, no Date, local clock 20 min behind: never held past the grant', async () => {
    variant = { defaultTtlSeconds: 600 };
    const behind = 20 * MINUTE;
    const held = managerFor({ now: () => Date.now() - behind });
    const info = await held.getTokenInfo();
    const asked = JSON.parse(service.requests[0]?.body ?? '{}') as { ttl_seconds?: number };
    expect(asked.ttl_seconds).toBe(1800);
    const grantedUntil = Date.now() + (asked.ttl_seconds ?? 600) * 1000;
    // getTokenInfo dates the expiry on the (wrong) local clock: back to the true clock.
    expect(info.expiresAt.getTime() + behind).toBeLessThanOrEqual(grantedUntil);
  });
});

describe('a token longer than any secret the redactor holds (red team 4d F3)', () => {
  it('a 1 MB token is refused as a malformed mint answer, typed, without echoing it', async () => {
    variant = { token: `tok_${'a'.repeat(1_048_576)}` };
    const error = await managerFor()
      .getToken()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toMatch(/TokenMintError|ProtocolError/);
    expect(String(error).length).toBeLessThan(2_000);
    variant = { token: `tok_${'a'.repeat(16_000)}` }; // within 16 KiB: a token
    expect(await managerFor().getToken()).toBe(variant.token);
  });
});
