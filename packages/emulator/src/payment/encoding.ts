// Web-standard only: the emulator app also runs embedded (createEmulator) outside Node.

/** UTF-8 text as base64url without padding. */
export function toBase64Url(text: string): string {
  return bytesToBase64Url(new TextEncoder().encode(text));
}

export function bytesToBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** base64url (padding optional) to UTF-8 text; undefined when it is not. */
export function fromBase64Url(value: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return undefined;
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  try {
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}

/** JSON with keys sorted (RFC 8785 for the flat string records used here), as mppx signs it. */
export function canonicalJson(record: Record<string, string | number>): string {
  const sorted = Object.keys(record)
    .sort()
    .map((key) => [key, record[key]]);
  return JSON.stringify(Object.fromEntries(sorted));
}

/** HMAC-SHA256 of `input` under `secret`, base64url: how mppx derives challenge ids. */
export async function hmacId(secret: string, input: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(input));
  return bytesToBase64Url(new Uint8Array(mac));
}

/** Compares two strings without stopping at the first difference. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
