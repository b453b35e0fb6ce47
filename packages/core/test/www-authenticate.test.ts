import { describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from '../src/http/www-authenticate.js';

describe('parseWwwAuthenticate (RFC 9110 §11.6.1)', () => {
  it('returns no challenge for a missing or empty header', () => {
    expect(parseWwwAuthenticate(null)).toEqual([]);
    expect(parseWwwAuthenticate('')).toEqual([]);
    expect(parseWwwAuthenticate(' , ')).toEqual([]);
  });

  it('reads one Payment challenge with quoted and token values', () => {
    expect(parseWwwAuthenticate('Payment id="abc", realm=catalog, intent="charge"')).toEqual([
      { scheme: 'Payment', params: { id: 'abc', realm: 'catalog', intent: 'charge' } },
    ]);
  });

  it('splits several challenges, including schemes without parameters', () => {
    expect(
      parseWwwAuthenticate('Negotiate, Basic realm="a, b", Bearer error="invalid_token"'),
    ).toEqual([
      { scheme: 'Negotiate', params: {} },
      { scheme: 'Basic', params: { realm: 'a, b' } },
      { scheme: 'Bearer', params: { error: 'invalid_token' } },
    ]);
  });

  it('keeps commas and equals signs inside quoted strings', () => {
    const [challenge] = parseWwwAuthenticate('Payment request="a=1, b=2", id="x"');
    expect(challenge?.params).toEqual({ request: 'a=1, b=2', id: 'x' });
  });

  it('unescapes backslash escapes in quoted strings', () => {
    const [challenge] = parseWwwAuthenticate('Payment description="say \\"hi\\" \\\\ bye", id=1');
    expect(challenge?.params).toEqual({ description: 'say "hi" \\ bye', id: '1' });
  });

  it('lower-cases parameter names, keeps the scheme as sent, tolerates spaces around =', () => {
    expect(parseWwwAuthenticate('PAYMENT  ID = "x" ,Realm= y')).toEqual([
      { scheme: 'PAYMENT', params: { id: 'x', realm: 'y' } },
    ]);
  });

  it('reads token68 challenges, with padding', () => {
    expect(parseWwwAuthenticate('Custom abc/+def==, Basic realm="r"')).toEqual([
      { scheme: 'Custom', params: {}, token68: 'abc/+def==' },
      { scheme: 'Basic', params: { realm: 'r' } },
    ]);
  });

  it('keeps what it read when a quoted string is not closed', () => {
    expect(parseWwwAuthenticate('Payment id="abc')).toEqual([
      { scheme: 'Payment', params: { id: 'abc' } },
    ]);
  });

  it('reads an L402 challenge after a Payment one', () => {
    const header =
      'Payment id="p1", method="tempo", request="eyJhbW91bnQiOiIxMDAwIn0", expires="2030-01-01T00:00:00Z", L402 token="AgEEbHNhdA==", invoice="lnbc100n1p"';
    expect(parseWwwAuthenticate(header).map((challenge) => challenge.scheme)).toEqual([
      'Payment',
      'L402',
    ]);
    expect(parseWwwAuthenticate(header)[1]?.params.token).toBe('AgEEbHNhdA==');
  });
});
