/** A JSON object as read from a request or an answer. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an array of JSON objects (anything else left out). */
export function jsonList(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isJson) : [];
}

/** The value as a string, or `fallback` when it is none. */
export function stringOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}
