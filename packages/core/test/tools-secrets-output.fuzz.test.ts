import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../src/http/redact.js';
import { redactToolOutput } from '../src/tools/catalog-tools.js';
import { TEST_KEY } from './support/fixtures.js';

// Generated tool outputs with the key planted anywhere (in strings and member names, at any
// depth, in any letter case, glued to other text): the redacted output never holds it, and
// an output that held none comes back as the very same object.

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;
const redact = createRedactor(TEST_KEY);

/** The key in a random letter case, between random text. */
const plantedKey = fc
  .tuple(
    fc.string(),
    fc.array(fc.boolean(), { minLength: TEST_KEY.length, maxLength: TEST_KEY.length }),
    fc.string(),
  )
  .map(([before, upper, after]) => {
    const key = [...TEST_KEY].map((char, index) => (upper[index] ? char.toUpperCase() : char));
    return `${before}${key.join('')}${after}`;
  });

/** JSON whose strings and member names are sometimes a planted key. */
const output = fc.letrec((tie) => ({
  text: fc.oneof(fc.string(), plantedKey),
  value: fc.oneof(
    { depthSize: 'small' },
    tie('text'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(tie('text') as fc.Arbitrary<string>, tie('value'), { maxKeys: 5 }),
  ),
})).value;

const holdsKey = (value: unknown) => JSON.stringify(value).toLowerCase().includes(TEST_KEY);

describe('redactToolOutput on generated outputs', () => {
  it('never returns the key, and agrees with the deep redactor on every value', () => {
    fc.assert(
      fc.property(output, (value) => {
        const redacted = redactToolOutput(value, redact);
        expect(holdsKey(redacted)).toBe(false);
        expect(redacted).toEqual(redact(value));
      }),
      { numRuns: RUNS },
    );
  });

  it('returns an output without the key itself, unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!holdsKey(value));
        const before = JSON.stringify(value);
        expect(redactToolOutput(value, redact)).toBe(value);
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('never changes the output it was given (copies, never edits in place)', () => {
    fc.assert(
      fc.property(output, (value) => {
        const before = JSON.stringify(value);
        redactToolOutput(value, redact);
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });
});
