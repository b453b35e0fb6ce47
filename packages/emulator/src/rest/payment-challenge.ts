/** Seconds a payment challenge stays valid. */
const CHALLENGE_TTL_SECONDS = 300;

const base64url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * A `WWW-Authenticate` value with two "Payment" challenges (Machine Payments Protocol
 * style). Two challenges and a realm with a comma inside quotes make clients parse the
 * header per RFC 9110 instead of splitting on commas.
 */
export function paymentChallengeHeader(challengeId: string, now: Date): string {
  const expires = new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000).toISOString();
  const challenge = (method: string, request: Record<string, string>) =>
    `Payment id="${challengeId}_${method}", realm="catalogkit emulator, payments", method="${method}", intent="charge", request="${base64url(JSON.stringify(request))}", expires="${expires}"`;
  return [
    challenge('tempo', { amount: '1000', currency: 'usd', recipient: '0xcatalogkitemulator' }),
    challenge('stripe', { amount: '1000', currency: 'usd', description: 'Catalog API credits' }),
  ].join(', ');
}
