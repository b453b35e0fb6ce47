import { encodeHTML } from 'entities';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { secretEchoesIn } from '../src/errors/index.js';
import { redactModuleAt, redactSecrets } from './support/redact-text.js';

// Wave 4i replaced the Aho-Corasick automaton by one KMP matcher per form, stepped in the same
// pass. The two must find the same spans: main's redactor (c3d357a, before the change) is read
// from git into a temporary directory at run time (no copy is committed), as bench:redact does.
const BASELINE = process.env.REDACT_BASELINE || 'c3d357a';
type Api = { redactSecrets: typeof redactSecrets; secretEchoesIn: typeof secretEchoesIn };
let automaton: Api;

beforeAll(async () => {
  automaton = await redactModuleAt<Api>(BASELINE);
});

const b64 = (value: string) => Buffer.from(value).toString('base64');
const ENCODERS: ((value: string) => string)[] = [
  (v) => v,
  (v) => v.toUpperCase(),
  encodeURIComponent,
  (v) => JSON.stringify(v).slice(1, -1),
  encodeHTML,
  (v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`),
  b64,
  (v) => Buffer.from(v).toString('base64url'),
  (v) => v.slice(0, Math.max(1, v.length - 2)), // a near miss
];

const secret = fc.stringMatching(/^[ -~]{4,64}$/);
/** Random text with escapes and echoes of `secrets` through the encoders, glued or spaced. */
const textOf = (secrets: string[]) =>
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 12, unit: 'grapheme-ascii' }),
        fc.constantFrom('%2', '%25', '&amp;', '&#x', '\\u00', '\\/', '+', ' '),
        fc
          .tuple(fc.nat(secrets.length - 1), fc.nat(ENCODERS.length - 1))
          .map(([s, e]) => ENCODERS[e]!(secrets[s]!)),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));

describe('the KMP scan finds exactly the spans of the automaton it replaced (property)', () => {
  it('on random secrets and texts echoing them through the encoders', () => {
    const cases = fc
      .array(secret, { minLength: 1, maxLength: 4 })
      .chain((secrets) => fc.tuple(fc.constant(secrets), textOf(secrets)));
    fc.assert(
      fc.property(cases, ([secrets, text]) => {
        expect(redactSecrets(text, secrets)).toBe(automaton.redactSecrets(text, secrets));
        expect(secretEchoesIn(text, secrets)).toEqual(automaton.secretEchoesIn(text, secrets));
      }),
      { numRuns: Number(process.env.CATALOGKIT_FUZZ_RUNS) || 2000, seed: 4_2026 },
    );
  });

  it('on secrets beyond ASCII (accents, emoji: surrogate pairs)', () => {
    const wide = fc.string({ unit: 'grapheme', minLength: 2, maxLength: 16 });
    const cases = fc
      .array(wide, { minLength: 1, maxLength: 3 })
      .chain((secrets) => fc.tuple(fc.constant(secrets), textOf(secrets)));
    fc.assert(
      fc.property(cases, ([secrets, text]) => {
        expect(redactSecrets(text, secrets)).toBe(automaton.redactSecrets(text, secrets));
        expect(secretEchoesIn(text, secrets)).toEqual(automaton.secretEchoesIn(text, secrets));
      }),
      { numRuns: Number(process.env.CATALOGKIT_FUZZ_RUNS) || 1000, seed: 4_2028 },
    );
  });

  it('on secrets of repeated units, whose forms overlap themselves', () => {
    const unit = fc.stringMatching(/^[ -~]{1,3}$/);
    const cases = fc
      .array(fc.tuple(unit, fc.integer({ min: 2, max: 20 })), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map(([u, n]) => u.repeat(n)).filter((s) => s.length >= 4))
      .filter((secrets) => secrets.length > 0)
      .chain((secrets) => fc.tuple(fc.constant(secrets), textOf(secrets)));
    fc.assert(
      fc.property(cases, ([secrets, text]) => {
        const doubled = `${text}${text}`;
        expect(redactSecrets(doubled, secrets)).toBe(automaton.redactSecrets(doubled, secrets));
        expect(secretEchoesIn(doubled, secrets)).toEqual(
          automaton.secretEchoesIn(doubled, secrets),
        );
      }),
      { numRuns: Number(process.env.CATALOGKIT_FUZZ_RUNS) || 2000, seed: 4_2027 },
    );
  });
});
