/**
 * Levenshtein distance between two strings, or `max + 1` as soon as it must exceed `max`.
 * Only a band of `2 * max + 1` cells per row is computed (and written), so one comparison
 * costs about `a.length * (2 * max + 1)` plus allocating two rows of `b.length`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const beyond = max + 1;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j <= max ? j : beyond;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // Only the band is written, plus one cell either side that the next row reads: filling
    // the whole row would cost O(|b|) per row, past what the caller was charged.
    current[0] = i <= max ? i : beyond;
    if (from > 1) current[from - 1] = beyond;
    if (to < b.length) current[to + 1] = beyond;
    let rowMin = current[0];
    for (let j = from; j <= to; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      const value = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1, beyond);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return beyond;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, beyond);
}
