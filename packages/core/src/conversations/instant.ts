import type { InstantInput } from './types.js';

/** Epoch milliseconds below this are almost surely epoch seconds passed by mistake (1973). */
const SECONDS_SUSPECT_BELOW = 1e11;

/**
 * Converts an application-supplied instant to epoch milliseconds, or returns a message
 * naming `field` that says what is wrong with it.
 */
export function parseInstant(
  value: InstantInput | undefined,
  field: string,
): { ms: number } | { problem: string } {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? { problem: `${field} is an invalid Date` } : { ms };
  }
  if (typeof value === 'number') return parseEpochMs(value, field);
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? { problem: `${field} is not a parseable date: "${value}"` } : { ms };
  }
  return { problem: `${field} must be a Date, a date string or epoch milliseconds` };
}

function parseEpochMs(value: number, field: string): { ms: number } | { problem: string } {
  if (!Number.isFinite(value)) return { problem: `${field} must be a finite number` };
  if (value < SECONDS_SUSPECT_BELOW) {
    return { problem: `${field} must be epoch milliseconds; ${value} looks like seconds` };
  }
  return { ms: value };
}
