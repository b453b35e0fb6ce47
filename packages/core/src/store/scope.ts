/*
 * Who an entry of shared state belongs to. One store may be shared by clients of several
 * API keys (tenants) and several services (staging and production on one Redis): what one
 * learnt must never answer another's call. Entries are scoped by a digest of the service
 * address and the API key, so the key itself is never stored.
 */

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The first 32 hex digits of the SHA-256 of `address`, a newline and `apiKey` (`anonymous`
 * without one): equal for the same service and key, unrelated otherwise, and the key cannot
 * be read back from it. Undefined without Web Crypto's `subtle` (a page served over plain HTTP).
 */
export async function scopeDigest(
  address: string,
  apiKey: string | undefined,
): Promise<string | undefined> {
  const text = new TextEncoder().encode(`${address}\n${apiKey ?? 'anonymous'}`);
  const digest = await globalThis.crypto?.subtle?.digest('SHA-256', text);
  return digest && hex(digest).slice(0, 32);
}

/** 16 random hex digits: a unique stamp for one record (it guards no secret). */
export function randomStamp(): string {
  return hex(crypto.getRandomValues(new Uint8Array(8)));
}

/**
 * The origin of a service address (`https://api.example.com`: scheme, host in lower case,
 * port unless the default), so spellings of one service share its state. Different host
 * names (`localhost` and `127.0.0.1`) stay different services.
 */
export function originOf(address: string | undefined): string {
  if (address === undefined) return '';
  try {
    return new URL(address).origin;
  } catch {
    return address;
  }
}
