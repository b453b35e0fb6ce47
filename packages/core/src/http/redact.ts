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

/** Builds a redactor that replaces every occurrence of `secret` in strings, deeply. */
export function createRedactor(secret: string | undefined): Redactor {
  // A very short "secret" would shred ordinary text; real keys are long.
  if (!secret || secret.length < 4) return (value) => value;
  return <T>(value: T): T => redactValue(value, secret) as T;
}
