/**
 * A count with its noun in the right number: `1 website`, `0 websites`, `2 clauses`.
 * `plural` defaults to the noun with an `s`.
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
