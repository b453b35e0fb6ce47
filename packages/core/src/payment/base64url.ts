// Web-standard only (atob/btoa, TextEncoder): core runs in browsers and edge workers too.

/** Decodes base64url (padding optional) to UTF-8 text; undefined when it is not base64url. */
function decodeBase64Url(value: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return undefined;
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  try {
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Decodes base64url JSON to a plain object; undefined for anything else. */
export function decodeBase64UrlJson(value: string): Record<string, unknown> | undefined {
  const text = decodeBase64Url(value);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
