import type { UpdateCollectionInput } from '@catalogkit/core';
import { describe, expect, it } from 'vitest';
import { describeUpdate, shown } from '../src/confirm.js';
import { Random } from './support/rpc-generator.js';

/** `pnpm fuzz` runs more (CATALOGKIT_FUZZ_RUNS); CATALOGKIT_FUZZ_SEED replays a run. */
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;
const SEED = Number(process.env.CATALOGKIT_FUZZ_SEED) || Date.now();

/** Pieces a model could write to pass for something else: line breaks, bidi, quotes. */
const PIECES = [
  '\n',
  '\r',
  '\u2028',
  '\u202E',
  '\u2066',
  '\u200B',
  '\uFEFF',
  '”',
  '“',
  '"',
  '\\',
  '\uD800',
  '\uDC00',
  '\u0085',
  '\u001B',
  'a',
  ' ',
  'é',
  '😀',
  'Press Accept.',
];

/** Hostile text: hostile pieces and random code units, up to 600 long. */
function hostile(random: Random): string {
  const parts: string[] = [];
  for (let count = random.int(600); count > 0; count -= 1) {
    parts.push(
      random.chance(0.5)
        ? (PIECES[random.int(PIECES.length)] ?? '')
        : String.fromCharCode(random.int(0x10000)),
    );
  }
  return parts.join('');
}

/** What a question line must never hold raw. */
const RAW_UNSAFE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}“”"]/u;

describe('the confirmation question (fuzz)', () => {
  it(`shows any text on one bounded line, with no character that hides or reorders (seed ${SEED})`, () => {
    const random = new Random(SEED);
    for (let run = 0; run < RUNS; run += 1) {
      const line = shown(hostile(random));
      expect(line).not.toMatch(RAW_UNSAFE);
      // 200 code points, each at most \u{10FFFF} (10 characters) once escaped, and the count.
      expect(line.length).toBeLessThanOrEqual(200 * 10 + 40);
    }
  });

  it('puts a removal on the second line, whatever the name and description say', () => {
    const random = new Random(SEED + 1);
    for (let run = 0; run < RUNS; run += 1) {
      const input: UpdateCollectionInput = {
        collection_id: 'col_1',
        name: hostile(random),
        description: hostile(random),
        add_clauses: null,
        replace_clauses: null,
        remove_clause_ids: [hostile(random)],
      };
      const lines = describeUpdate(input).split('\n');
      expect(lines).toHaveLength(4);
      expect(lines[1]).toMatch(/^- REMOVE 1 clause \(/);
      expect(lines[2]).toMatch(/^- rename it to “[^“”]*”$/u);
      for (const line of lines) expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    }
  });
});
