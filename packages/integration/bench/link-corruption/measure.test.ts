// Checks what the corruption benchmark counts: each mangle really damages the copy, and the
// totals the README quotes hold (no corrupted link reaches the final text unreported).

import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import type { BuyLinkMode } from '@catalogkit/links';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANGLES, seededRandom } from '../../../testing/src/scenarios/mangles.js';
import { type CorruptionRow, measureLinkCorruption } from './measure.js';

const LINK =
  'https://go.catalogkit.test/r/web_a?pub=p&campaign=agent+search&u=https%3A%2F%2Fshop.test%2Fx&sig=abc123';
const OTHER =
  'https://go.catalogkit.test/r/web_b?pub=p&campaign=agent+search&u=https%3A%2F%2Fshop.test%2Fy&sig=zzz999';

describe('link mangles', () => {
  it('are at least eight, and each one changes a link', () => {
    expect(MANGLES.length).toBeGreaterThanOrEqual(8);
    for (const mangle of MANGLES) {
      const context = { other: OTHER, random: seededRandom(1) };
      expect(mangle.link(LINK, context), mangle.name).not.toBe(LINK);
    }
  });
});

describe('link corruption benchmark against the emulator', () => {
  let emulator: RunningEmulator;
  let rows: Record<BuyLinkMode, CorruptionRow[]>;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
    rows = await measureLinkCorruption(emulator);
  }, 120_000);
  afterAll(async () => {
    await emulator?.close();
  });

  it('accounts for every copy in exactly one outcome', () => {
    for (const row of [...rows.inline, ...rows.reference]) {
      expect(
        row.intact + row.flagged + row.wrongOffer + row.unlinked + row.corruptedShown,
        row.mangle,
      ).toBe(row.trials);
    }
  });

  it('inline: no corrupted link is shown unreported, and only the swap names another offer', () => {
    for (const row of rows.inline) {
      expect(row.trials, row.mangle).toBeGreaterThan(80);
      expect(row.corruptedShown, row.mangle).toBe(0);
      if (row.mangle !== 'two links swapped') expect(row.wrongOffer, row.mangle).toBe(0);
      // Only a URL without its scheme is text no renderer links (GFM, the links package).
      if (row.mangle !== 'scheme dropped') expect(row.unlinked, row.mangle).toBe(0);
    }
  });

  it('reference: no corrupted link reaches the final text', () => {
    for (const row of rows.reference) expect(row.corruptedShown, row.mangle).toBe(0);
  });
});
