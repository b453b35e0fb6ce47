// Scratch rows reused by every call: fuzzy search runs per request on the hot path.
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

function ensureCapacity(length: number): void {
  if (previousRow.length > length) return;
  previousRow = new Int32Array(length * 2);
  currentRow = new Int32Array(length * 2);
}

/**
 * Levenshtein distance, giving up (returning max + 1) as soon as it must exceed `max`:
 * most candidates are rejected after a row or two, which keeps fuzzy search cheap.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  ensureCapacity(b.length + 1);
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const code = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        substitution,
      );
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

/** Typos tolerated for a query of this length. */
export function allowedEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  return length <= 9 ? 2 : 3;
}
