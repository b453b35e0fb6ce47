const REDACTED = '[redacted]';

/**
 * Removes a secret from text the service sent back (a `detail` that echoes the key, an
 * HTML page) before it goes into an error or a log line.
 */
export type Redactor = <T>(value: T) => T;

function redactString(text: string, secret: string): string {
  return text.split(secret).join(REDACTED);
}

function redactValue(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return redactString(value, secret);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactValue(item, secret)]),
    );
  }
  return value;
}

/**
 * Builds a redactor that replaces every occurrence of each secret (the API key, a bearer
 * token) in strings, deeply. Missing secrets are ignored.
 */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  // A very short "secret" would shred ordinary text; real keys and tokens are long.
  const real = secrets
    .filter((secret): secret is string => (secret?.length ?? 0) >= 4)
    // Longest first, so a secret that contains another is still removed whole.
    .sort((a, b) => b.length - a.length);
  if (real.length === 0) return (value) => value;
  return <T>(value: T): T =>
    real.reduce<unknown>((text, secret) => redactValue(text, secret), value) as T;
}
