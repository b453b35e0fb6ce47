// Red-team findings on the payment step (issue 23, second round): each test here failed
// before its fix; those of the budgeted payer moved with it to packages/mppx/test.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from '../src/http/www-authenticate.js';
import { CatalogClient } from '../src/index.js';
import type { LogContext } from '../src/logger.js';
import {
  decodePaymentChallenges,
  parseRfc3339,
  paymentChallengeProblems,
} from '../src/payment/challenge.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const KEY = 'ck_live_0123456789abcdef0123456789abcdef';
const CREDENTIAL = 'Payment cred_abc123';

function challengeHeader(request: Record<string, unknown>, params = ''): string {
  return `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64(request)}"${params}`;
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Challenges a request without a `Payment` credential; answers a paid one with `paid`. */
function challengeThen(header: string, paid: Parameters<TestServer['handle']>[0]) {
  server.handle((request, response) => {
    if (request.headers.authorization?.startsWith('Payment ')) return paid(request, response);
    response.setHeader('www-authenticate', header);
    sendJson(response, 402, { detail: 'Payment required' });
  });
}

const search = (client: CatalogClient) => client.websites.search({ query: 'x' });

describe('F2: a header name echoing the key', () => {
  it('is redacted in error.headers, JSON and inspect', async () => {
    challengeThen(challengeHeader({ amount: '25', currency: 'usd' }), (_request, response) => {
      response.setHeader(`x-echo-${KEY}`, '1');
      response.setHeader(`x-cred-${CREDENTIAL.slice(8)}`, '1');
      sendJson(response, 403, { detail: 'forbidden' });
    });
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 0,
      payment: { pay: () => CREDENTIAL },
    });
    const error = await search(client).catch((caught: unknown) => caught);
    const text = `${JSON.stringify(error)}\n${inspect(error, { showHidden: true, depth: 10 })}`;
    expect(JSON.stringify((error as { headers: unknown }).headers)).toContain('x-echo-[redacted]');
    expect(text.toLowerCase()).not.toContain(KEY.toLowerCase());
    expect(text).not.toContain('cred_abc123');
  });
});

describe('F4: user hooks that reject asynchronously', () => {
  it('an async onReceipt that rejects is logged, not an unhandled rejection', async () => {
    challengeThen(challengeHeader({ amount: '25', currency: 'usd' }), (_request, response) => {
      response.setHeader('payment-receipt', b64({ status: 'success', reference: 'r1' }));
      sendJson(response, 200, { websites: [] });
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const logged: [string, LogContext | undefined][] = [];
    try {
      const client = new CatalogClient({
        apiKey: KEY,
        baseUrl: server.origin,
        maxRetries: 0,
        logger: { error: (message, context) => logged.push([message, context]) },
        payment: {
          pay: () => CREDENTIAL,
          onReceipt: async () => {
            throw new Error(`receipt store down ${KEY}`);
          },
        },
      });
      await search(client);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(logged.map(([message]) => message)).toEqual([
      'websites.search: payment.onReceipt threw',
    ]);
    expect(JSON.stringify(logged)).not.toContain(KEY);
  });
});

describe('F8: ambiguous challenges are refused, not guessed', () => {
  const read = (header: string) => {
    const offered = parseWwwAuthenticate(header);
    return { paid: decodePaymentChallenges(offered), problems: paymentChallengeProblems(offered) };
  };

  it('refuses a repeated expires', () => {
    const { paid, problems } = read(
      challengeHeader(
        { amount: '25', currency: 'usd' },
        ', expires="2000-01-01T00:00:00Z", expires="2999-01-01T00:00:00Z"',
      ),
    );
    expect(paid).toEqual([]);
    expect(problems).toEqual(['Payment challenge 1: expires given more than once']);
  });

  it('refuses a repeated request (999.99 then 0.01 USD), in any letter case', () => {
    const header = `${challengeHeader({ amount: '99999', currency: 'usd' })}, REQUEST="${b64({ amount: '1', currency: 'usd' })}"`;
    const { paid, problems } = read(header);
    expect(paid).toEqual([]);
    expect(problems).toEqual(['Payment challenge 1: request given more than once']);
  });

  it('refuses a JSON-number amount (rounded by JSON.parse) and keeps the good challenge beside it', () => {
    // Raw JSON text: a JS number literal would already be rounded here.
    const request = Buffer.from('{"amount":12345678901234567891,"currency":"usd"}').toString(
      'base64url',
    );
    const bad = `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${request}"`;
    const good = challengeHeader({ amount: '25', currency: 'usd' }).replace('ch_1', 'ch_2');
    const { paid, problems } = read(`${bad}, ${good}`);
    expect(paid.map((challenge) => challenge.id)).toEqual(['ch_2']);
    expect(problems).toEqual([
      'Payment challenge 1: request.amount must be a string (a JSON number may have been rounded)',
    ]);
  });

  it('reads a year before 100 as itself (Date.UTC would make 0099 into 1999)', () => {
    expect(parseRfc3339('0099-12-31T23:59:59Z')?.toISOString()).toBe('0099-12-31T23:59:59.000Z');
    expect(parseRfc3339('0100-02-29T00:00:00Z')).toBeUndefined();
  });

  it('still reads each parameter given once', () => {
    expect(read(challengeHeader({ amount: '25', currency: 'usd' })).paid).toHaveLength(1);
  });
});
