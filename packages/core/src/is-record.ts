/** True for a plain JSON-like object (not null, not an array): the one guard for open objects. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
