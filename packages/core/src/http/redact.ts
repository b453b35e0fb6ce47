const REDACTED = '[redacted]';

/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error or a log line.
 */
export type Redactor = <T>(value: T) => T;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function redactValue(value: unknown, pattern: RegExp): unknown {
  if (typeof value === 'string') return value.replace(pattern, REDACTED);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, pattern));
  if (value !== null && typeof value === 'object') {
    // Names too: a server may echo the key as an object member's name.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key.replace(pattern, REDACTED),
        redactValue(item, pattern),
      ]),
    );
  }
  return value;
}

/**
 * Builds a redactor that replaces every occurrence of each secret (the API key, a bearer
 * token) in strings and member names, deeply, in any letter case: a server or proxy that
 * lower-cases a header value must not slip the key past it. Missing secrets are ignored.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  // A very short "secret" would shred ordinary text; real keys and tokens are long.
  const real = secrets
    .filter((secret): secret is string => (secret?.length ?? 0) >= 4)
    // Longest first, so a secret that contains another is still removed whole.
    .sort((a, b) => b.length - a.length);
  if (real.length === 0) return (value) => value;
  const pattern = new RegExp(real.map(escapeRegExp).join('|'), 'gi');
  return <T>(value: T): T => redactValue(value, pattern) as T;
}
