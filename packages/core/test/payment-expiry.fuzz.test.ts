import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../src/payment/challenge.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;

describe('a challenge expiry (property)', () => {
  it('an expiry is either a strict RFC 3339 date-time read exactly, or refused', () => {
    const rfc = fc
      .record({
        date: fc.date({
          min: new Date('1970-01-01'),
          max: new Date('9999-12-31'),
          noInvalidDate: true,
        }),
        offset: fc.integer({ min: -23 * 60, max: 23 * 60 }),
      })
      .map(({ date, offset }) => {
        const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23);
        const sign = offset < 0 ? '-' : '+';
        const abs = Math.abs(offset);
        const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        return { text: `${local}${zone}`, time: date.getTime() };
      });
    fc.assert(
      fc.property(rfc, ({ text, time }) => {
        expect(parseRfc3339(text)?.getTime()).toBe(time);
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const parsed = parseRfc3339(text);
        if (parsed !== undefined) {
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
