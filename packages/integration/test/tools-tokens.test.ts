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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe('model-facing size of search_catalog (real tokenizer)', () => {
  it('loses no buy link', () => {
    expect(rows.length).toBe(8);
    for (const row of rows) {
      expect(row.buyLinks, row.query).toBeGreaterThan(0);
      expect(row.linksLost, `${row.query} (${row.tier})`).toBe(0);
    }
  });

  it('is at most a third of the raw structuredContent in the anonymous tier and overall', () => {
    for (const row of rows.filter((r) => r.tier === 'anonymous'))
      expect(row.ratio, row.query).toBeLessThanOrEqual(1 / 3);
    expect(median(rows.map((row) => row.ratio))).toBeLessThanOrEqual(1 / 3);
  });

  it('stays under 0.4 in the token tier, where monetized links alone are over a quarter of the raw tokens', () => {
    for (const row of rows.filter((r) => r.tier === 'token'))
      expect(row.ratio, row.query).toBeLessThan(0.4);
  });
});
