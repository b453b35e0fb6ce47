import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureTokenTable, type TokenRow } from '../bench/token-table.js';

let emulator: RunningEmulator;
let rows: TokenRow[];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
  rows = await measureTokenTable(emulator);
});
afterAll(async () => {
  await emulator?.close();
});

describe('model-facing size of search_catalog (real tokenizer)', () => {
  it('loses no buy link', () => {
    expect(rows.length).toBe(8);
    for (const row of rows) {
      expect(row.buyLinks, row.query).toBeGreaterThan(0);
      expect(row.linksLost, `${row.query} (${row.tier})`).toBe(0);
    }
  });

  it('is at most a third of the raw structuredContent in the anonymous tier', () => {
    for (const row of rows.filter((r) => r.tier === 'anonymous'))
      expect(row.ratio, row.query).toBeLessThanOrEqual(1 / 3);
  });

  it('spends at most 0.15 of the raw tokens on everything but the buy links, in both tiers', () => {
    // The part the formatter controls: facts and ids per offer, legend, header, cursor.
    for (const row of rows) {
      expect(row.linkTokens, row.query).toBeGreaterThan(0);
      expect((row.modelTokens - row.linkTokens) / row.rawTokens, row.query).toBeLessThanOrEqual(
        0.15,
      );
    }
  });

  it('stays under 0.37 in the token tier, where monetized links alone are over a quarter of the raw tokens', () => {
    for (const row of rows.filter((r) => r.tier === 'token')) {
      expect(row.linkTokens / row.rawTokens, row.query).toBeGreaterThan(0.25);
      expect(row.ratio, row.query).toBeLessThan(0.37);
    }
  });

  it('in reference mode, is at most 0.15 of the raw tokens in the token tier, every buy link recoverable', () => {
    for (const row of rows) {
      // Anonymous links are short retailer URLs, so references save less there.
      const bound = row.tier === 'token' ? 0.15 : 0.17;
      expect(row.referenceRatio, `${row.query} (${row.tier})`).toBeLessThanOrEqual(bound);
      expect(row.referencesLost, `${row.query} (${row.tier})`).toBe(0);
    }
  });
});
