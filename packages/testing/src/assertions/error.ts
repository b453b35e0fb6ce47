/**
 * What every assertion of the kit throws: a plain `Error` any test runner reports, naming the
 * assertion and each problem found. Its message never holds a secret (keys are masked).
 */
export class CatalogAssertionError extends Error {
  override readonly name = 'CatalogAssertionError';
  /** The assertion that failed, e.g. `assertNoChangeAppliedTwice`. */
  readonly assertion: string;
  /** Each problem found, one sentence each. */
  readonly problems: readonly string[];

  constructor(assertion: string, problems: readonly string[]) {
    super(`${assertion}: ${problems.join('; ')}`);
    this.assertion = assertion;
    this.problems = problems;
  }
}

/** Throws a {@link CatalogAssertionError} when there are problems. */
export function throwIfAny(assertion: string, problems: readonly string[]): void {
  if (problems.length > 0) throw new CatalogAssertionError(assertion, problems);
}
