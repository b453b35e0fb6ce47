import { describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from '../src/http/www-authenticate.js';
import { describePaymentPrice } from '../src/payment/amount.js';
import { decodePaymentChallenges } from '../src/payment/challenge.js';
import type { PaymentChallenge } from '../src/payment/index.js';
import { decodePaymentReceipt } from '../src/payment/paid-request.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function challenge(
  fields: Partial<PaymentChallenge> & { amount: string; currency: string },
): PaymentChallenge {
  return {
    id: `ch_${fields.method ?? 'test'}_${fields.amount}`,
    realm: 'r',
    method: 'test',
    intent: 'charge',
    request: { amount: fields.amount, currency: fields.currency },
    description: undefined,
    expiresAt: undefined,
    params: {},
    ...fields,
  };
}

describe('decoding challenges and receipts', () => {
  it('decodes every Payment challenge of a header, lifting amount and currency out of request', () => {
    const header = [
      `Payment id="a", realm="x, y", method="tempo", intent="charge", request="${b64({ amount: '250000', currency: '0x20c0', decimals: 6, extra: { kept: true } })}", expires="2026-03-01T12:05:00Z"`,
      'Bearer realm="other"',
      `Payment id="b", realm="x, y", method="test", intent="charge", request="${b64({ amount: '25', currency: 'usd' })}"`,
      'Payment id="c", method="test", intent="charge", request="%%not-base64%%"',
    ].join(', ');
    const decoded = decodePaymentChallenges(parseWwwAuthenticate(header));
    expect(decoded.map((c) => [c.id, c.method, c.amount, c.currency])).toEqual([
      ['a', 'tempo', '250000', '0x20c0'],
      ['b', 'test', '25', 'usd'],
    ]);
    expect(decoded[0]?.request.extra).toEqual({ kept: true });
    expect(decoded[0]?.expiresAt?.toISOString()).toBe('2026-03-01T12:05:00.000Z');
    expect(decoded[0]?.realm).toBe('x, y');
  });

  it('decodes a receipt leniently and keeps the raw value', () => {
    const raw = b64({
      method: 'tempo',
      reference: '0xabc',
      status: 'success',
      timestamp: 't',
      extra: 1,
    });
    expect(decodePaymentReceipt(raw)).toEqual({
      method: 'tempo',
      reference: '0xabc',
      status: 'success',
      timestamp: 't',
      challengeId: undefined,
      fields: { method: 'tempo', reference: '0xabc', status: 'success', timestamp: 't', extra: 1 },
      raw,
    });
    expect(decodePaymentReceipt('not base64!')).toMatchObject({ fields: {}, raw: 'not base64!' });
  });
});

describe('describePaymentPrice', () => {
  it('prefers ISO prices, drops repeats, and says nothing without an amount', () => {
    const token = {
      ...challenge({ amount: '250000', currency: '0x20c0' }),
      request: { decimals: 6 },
    };
    const usd = challenge({ amount: '25', currency: 'usd' });
    const eur = challenge({ amount: '30', currency: 'eur' });
    expect(describePaymentPrice([token, usd, usd, eur])).toBe('0.25 USD or 0.30 EUR');
    expect(describePaymentPrice([token])).toBe('0.250000 0x20c0');
    expect(describePaymentPrice([challenge({ amount: 'many', currency: 'usd' })])).toBeUndefined();
  });
});
