import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from '../src/http/www-authenticate.js';
import {
  AbortError,
  CatalogClient,
  type CatalogClientOptions,
  ConfigurationError,
  PaymentRequiredError,
  TimeoutError,
} from '../src/index.js';
import { describePaymentPrice } from '../src/payment/amount.js';
import { decodePaymentChallenges } from '../src/payment/challenge.js';
import type { PayFunction } from '../src/payment/index.js';
import { errorTextForModel } from '../src/tools/error-text.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CREDENTIAL = 'Payment cred_abc123';
const FOREVER = new Promise<never>(() => undefined);
/**
 * The call deadline in the tests that let a payment step hang. Long enough that the 402 round
 * trip before the hook fits inside it on a busy machine (at 300 ms it did not), so the deadline
 * is always met while the hook waits, which is what these tests are about.
 */
const DEADLINE_MS = 2_000;
/** How late past its deadline a call may end on a busy machine: the deadline, not the hook, ended it. */
const LATE_MS = 8_000;

/** A `Payment` challenge header whose request carries `request` and extra `params`. */
function challengeHeader(request: Record<string, unknown>, params = ''): string {
  return `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64(request)}"${params}`;
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Challenges every request without `CREDENTIAL` with `header`; with it, answers 200. */
function challengeWith(header: string) {
  server.handle((request, response: ServerResponse) => {
    if (request.headers.authorization === CREDENTIAL) {
      return sendJson(response, 200, { collection_id: 'col_1', name: 'New', clauses: [] });
    }
    response.setHeader('www-authenticate', header);
    sendJson(response, 402, { detail: 'Payment required' });
  });
}

function clientWith(pay: PayFunction, options: Partial<CatalogClientOptions> = {}) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: server.origin,
    payment: { pay },
    maxRetries: 0,
    ...options,
  });
}

/** How long `promise` took to settle, and what it settled with. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; error: unknown }> {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { ms: performance.now() - start, error };
}

describe('the payment step runs under the call deadline and signal', () => {
  const usd25 = challengeHeader({ amount: '25', currency: 'usd' });

  it('a pay hook that never answers ends the call at timeoutMs, saying so; nothing is resent', async () => {
    challengeWith(usd25);
    const client = clientWith(() => FOREVER, { timeoutMs: DEADLINE_MS });
    const { ms, error } = await timed(client.collections.update('col_1', { name: 'New' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(
      /timed out after 2000 ms while waiting for the payment hook \(payment\.pay\)/,
    );
    // Nothing was sent after the 402 (a refusal): the update was certainly not applied.
    expect(error).toMatchObject({ outcomeUnknown: false });
    expect(ms).toBeLessThan(DEADLINE_MS + LATE_MS);
    expect(server.requests).toHaveLength(1);
    expect(errorTextForModel(error)).toMatch(/not approved in time.*Do not call this tool again/);
  });

  it('the caller aborting while the hook waits ends the call with AbortError, saying so', async () => {
    challengeWith(usd25);
    const controller = new AbortController();
    const client = clientWith(
      () => {
        setTimeout(() => controller.abort(), 50);
        return FOREVER;
      },
      { timeoutMs: 30_000 },
    );
    const { ms, error } = await timed(
      client.websites.search({ query: 'nike' }, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toMatch(/aborted while waiting for the payment hook/);
    // Ended by the abort, well before the deadline, however slow the machine.
    expect(ms).toBeLessThan(15_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a credential fetch cannot send', () => {
  it.each([
    ['non-Latin-1', 'Payment cr€d_SECRETMARK'],
    ['Latin-1 but not ASCII', 'Payment créd_SECRETMARK'],
    ['a control character', 'Payment cred\u0000_SECRETMARK'],
    ['a line break', 'Payment SECRETMARK\r\nx-injected: 1'],
    ['longer than 16 KiB (red team F5)', `Payment SECRETMARK${'e'.repeat(16_400)}`],
  ])(
    '(%s) is refused before sending: ConfigurationError, outcomeUnknown false',
    async (_name, credential) => {
      challengeWith(challengeHeader({ amount: '25', currency: 'usd' }));
      const client = clientWith(() => credential);
      const error = await client.collections
        .update('col_1', { name: 'New' })
        .catch((caught) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toMatch(
        /outside printable ASCII|Authorization header value|longer than/,
      );
      expect(error.message).not.toContain('SECRETMARK');
      expect(error.outcomeUnknown).toBe(false);
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe('currencies are compared as ASCII codes', () => {
  it('a challenge in a non-ASCII currency is left out, and the 402 error names why', async () => {
    challengeWith(challengeHeader({ amount: '10', currency: 'SE\u212A' }));
    let asked = 0;
    const client = clientWith(() => {
      asked++;
      return CREDENTIAL;
    });
    const error = await client.websites.search({ query: 'x' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.message).toContain('request.currency must be printable ASCII');
    expect(asked).toBe(0);
  });
});

describe('invalid decimals', () => {
  it('leave the challenge out: no price is shown, nothing is paid, the 402 names them', async () => {
    for (const decimals of [-1, 1.5, 37, '6', null, 1e21]) {
      const header = challengeHeader({ amount: '100', currency: 'usd', decimals });
      const decoded = decodePaymentChallenges(parseWwwAuthenticate(header));
      expect(decoded).toEqual([]);
      expect(describePaymentPrice(decoded)).toBeUndefined();
    }
    challengeWith(challengeHeader({ amount: '100', currency: 'usd', decimals: 37 }));
    const error = await clientWith(() => CREDENTIAL)
      .websites.search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.message).toContain('request.decimals must be an integer from 0 to 36');
  });
});

describe('a malformed expiry is refused, never read as "never expires"', () => {
  it.each([
    'yesterday',
    '1',
    '2026',
    '2026-02-30T00:00:00Z',
    '2026-01-01',
    'Tue, 01 Jan 2999 00:00:00 GMT',
    '',
  ])(
    'expires=%j: the challenge is not paid and the PaymentRequiredError names expires',
    async (expires) => {
      challengeWith(challengeHeader({ amount: '25', currency: 'usd' }, `, expires="${expires}"`));
      let asked = 0;
      const client = clientWith(() => {
        asked++;
        return CREDENTIAL;
      });
      const error = await client.websites.search({ query: 'x' }).catch((caught) => caught);
      expect(error).toBeInstanceOf(PaymentRequiredError);
      expect(error.message).toContain('Payment challenge 1: expires must be an RFC 3339 date-time');
      expect(asked).toBe(0);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('valid RFC 3339 forms are read exactly, offsets and fractions included', () => {
    const read = (expires: string) =>
      decodePaymentChallenges(
        parseWwwAuthenticate(
          challengeHeader({ amount: '1', currency: 'usd' }, `, expires="${expires}"`),
        ),
      )[0]?.expiresAt?.toISOString();
    expect(read('2026-03-01T12:05:00Z')).toBe('2026-03-01T12:05:00.000Z');
    expect(read('2026-03-01t12:05:00.5+02:00')).toBe('2026-03-01T10:05:00.500Z');
    expect(read('2024-02-29T23:59:59.123456789-00:30')).toBe('2024-03-01T00:29:59.123Z');
    expect(read('2025-02-29T00:00:00Z')).toBeUndefined();
  });

  it('a payable challenge beside a malformed one is still paid', async () => {
    const good = challengeHeader({ amount: '25', currency: 'usd' });
    const bad = challengeHeader({ amount: '25', currency: 'usd' }, ', expires="soon"').replace(
      'ch_1',
      'ch_2',
    );
    challengeWith(`${bad}, ${good}`);
    const seen: string[] = [];
    const client = clientWith((challenges) => {
      seen.push(...challenges.map((c) => c.id));
      return CREDENTIAL;
    });
    await expect(client.collections.update('col_1', { name: 'New' })).resolves.toMatchObject({
      name: 'New',
    });
    expect(seen).toEqual(['ch_1']);
  });
});
