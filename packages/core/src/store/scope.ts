/*
 * Who an entry of shared state belongs to. One store may be shared by clients of several
 * API keys (tenants) and several services (staging and production on one Redis): what one
 * learnt must never answer another's call. Entries are scoped by a digest of the service
 * address and the API key, so the key itself is never stored.
 */

/** Hex of `bytes`. */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The SHA-256 of `text` in hex; undefined without Web Crypto (a page served over plain HTTP). */
async function sha256Hex(text: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return undefined;
  return hex(new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/**
 * The first 32 hex digits of the SHA-256 of `address`, a newline and `apiKey` (`anonymous`
 * without one): equal for the same service and key, unrelated otherwise, and the key cannot
 * be read back from it. Undefined without Web Crypto (a page served over plain HTTP).
 */
export async function scopeDigest(
  address: string,
  apiKey: string | undefined,
): Promise<string | undefined> {
  return (await sha256Hex(`${address}\n${apiKey ?? 'anonymous'}`))?.slice(0, 32);
}

/**
 * 16 random hex digits: a unique stamp for one record (Web Crypto where present; the stamp
 * only needs to differ between records, it guards no secret).
 */
export function randomStamp(): string {
  const bytes = new Uint8Array(8);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else for (let index = 0; index < bytes.length; index++) bytes[index] = Math.random() * 256;
  return hex(bytes);
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
