// One store may serve several API keys and services: entries are scoped by a digest of both.

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * 32 hex digits of the SHA-256 of `address`, a newline and `apiKey` (the key cannot be read
 * back). Undefined without Web Crypto's `subtle` (a page served over plain HTTP).
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

/** A service address's origin, so spellings of one service share its state. */
export function originOf(address: string | undefined): string {
  if (address === undefined) return '';
  try {
    return new URL(address).origin;
  } catch {
    return address;
  }
}
