import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import * as zm from 'zod/v4/mini';
import { checkRequest } from '../src/validation/request.js';
import { schemaCheck } from '../src/validation/schema-check.js';

/*
 * Red team of wave 4i's two changes on the call path (5750092): requests checked by the
 * schema's generated check before zod (checks compiled), and fetch and body reads waiting
 * through `scope.until`. Each V test failed on 5750092. The built-in wire schemas use none of
 * the constructs the V findings need (every string minimum is 1, no union holds a trim), so
 * they are latent: the compiler's own promise ("true only when zod would succeed and return
 * an equal value") is what they break, for any schema handed to it.
 */

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;

/** zod's result for `input`: its output, or undefined when it fails. */
function zodOutput(schema: z.core.$ZodType, input: unknown): { data: unknown } | undefined {
  const parsed = z.safeParse(schema, structuredClone(input));
  return parsed.success ? { data: parsed.data } : undefined;
}

/** Equal as zod's output would be, -0 told from 0. */
const same = (a: unknown, b: unknown) =>
  isDeepStrictEqual(a, b) && (typeof a !== 'number' || Object.is(a, b));

/** checkRequest's result must be zod's, on success and failure alike. */
function expectAsZod(schema: z.core.$ZodType, input: unknown) {
  const zod = zodOutput(schema, input);
  const checked = checkRequest(schema, input);
  expect(checked.ok).toBe(zod !== undefined);
  if (checked.ok && zod) expect(same(checked.data, zod.data)).toBe(true);
}

describe('V: the generated request check passes only what zod outputs unchanged', () => {
  // V1. Severity: low (latent; no built-in string minimum is above 1). zod 4.6 counts a
  // string's minLength/maxLength in code points (zod 3.25's v4 in UTF-16 units); the
  // compiled rule compared UTF-16 units, so "😀" (two units, one code point) passed
  // `min(2)`, which zod refuses: a request sent unchecked.
  it('V1: a string minimum counts code points, as zod 4.6 does', () => {
    for (const schema of [z.string().min(2), zm.string().check(zm.minLength(2))]) {
      expect(schemaCheck(schema)?.('😀')).not.toBe(true);
      expectAsZod(schema, '😀');
      expectAsZod(schema, '😀a');
      expectAsZod(schema, 'ab');
    }
    expectAsZod(z.array(z.string()).min(2), ['😀']);
  });

  // V2. Severity: low (latent). A trim made an option "exact" (zod returns what it took);
  // zod returns the first option that succeeds, trimmed, while the check passed the
  // untrimmed value through a later option: the request sent was not zod's output.
  it('V2: a union whose earlier option trims sends what zod outputs (trimmed)', () => {
    const cases: [z.core.$ZodType, unknown][] = [
      [z.union([z.string().trim(), z.string()]), ' a '],
      [z.union([z.nullable(z.string().trim()), z.number()]), ' a '],
      [
        z.union([z.strictObject({ q: z.string().trim() }), z.looseObject({ q: z.string() })]),
        { q: ' a' },
      ],
      [z.union([z.array(z.string().toLowerCase()), z.array(z.string())]), ['A']],
    ];
    for (const [schema, input] of cases) expectAsZod(schema, input);
  });

  // V3. Severity: low (latent). An overwrite of a list may change it in place and return it
  // (`a.reverse()`): `tx(v) === v` held, and the check reversed the copy zod then parsed.
  it('V3: an overwrite that changes a list in place does not touch the copy zod parses', () => {
    const schema = z.union([
      z.array(z.string()).check(
        z.overwrite((list) => list.reverse()),
        z.maxLength(2),
      ),
      z.array(z.string()),
    ]);
    expectAsZod(schema, ['a', 'b', 'c']);
  });

  // V4. Severity: low. A custom string format named "regex" (`z.stringFormat('regex', fn)`)
  // has the kind of `.regex()` but a function and no pattern: the check threw a TypeError
  // ("Cannot set properties of undefined") out of checkRequest instead of zod's issue.
  it('V4: a custom string format named "regex" is left to zod, not thrown on', () => {
    const schema = z.string().check(z.stringFormat('regex', (value) => value.length > 3));
    expect(() => checkRequest(schema, 'ab')).not.toThrow();
    expectAsZod(schema, 'ab');
    expectAsZod(schema, 'abcd');
  });

  // V5. Severity: informational (JSON sends both as 0). `Math.abs` leaves -0 as -0 under
  // `===` but zod outputs 0: Object.is tells them apart, so the output is zod's exactly.
  it('V5: an overwrite is a no-op only under Object.is (-0 is not 0)', () => {
    expectAsZod(z.number().check(z.overwrite(Math.abs)), -0);
  });

  /** Strings as requests bring them: astral characters, Unicode spaces, ASCII. */
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc
      .array(
        fc.constantFrom('a', 'Z', ' ', '\u00a0', '\u200b', '\ufeff', '\u3000', '😀', '\u2028'),
        {
          maxLength: 6,
        },
      )
      .map((parts) => parts.join('')),
  );
  const number = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(-0, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 0.5, 1e308),
  );
  const SCHEMAS: [string, z.core.$ZodType][] = [
    ['string bounds, pattern, trim', z.string().trim().min(2).max(3).regex(/^\S/g)],
    ['mini string bounds and lowercase', zm.string().check(zm.minLength(2), zm.toLowerCase())],
    [
      'integer bounds',
      z
        .number()
        .int()
        .gte(-3)
        .lt(2 ** 53),
    ],
    ['exclusive and inclusive float bounds', z.number().gt(-1).lte(3)],
    ['union: trim first', z.union([z.string().trim().min(1), z.string(), z.number().int()])],
    ['optional list of bounded text', z.optional(z.array(z.string().max(2)).min(1).max(3))],
  ];

  it.each(SCHEMAS)('%s: checkRequest answers as zod on the copy', (_name, schema) => {
    const value = fc.oneof(text, number, fc.array(fc.oneof(text, number), { maxLength: 4 }));
    fc.assert(
      fc.property(value, (input) => expectAsZod(schema, input)),
      { numRuns: RUNS },
    );
  });
});
