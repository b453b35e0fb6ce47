import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Import cycles among the packages' sources, type-only imports included (a type cycle still
 * ties two files together). Resolution follows the workspace tsconfig, so `./x.js` finds
 * `./x.ts`.
 */
async function cyclesIn(folders: string[]): Promise<string[][]> {
  const graph = await madge(folders.map(here), {
    fileExtensions: ['ts'],
    tsConfig: here('../../../tsconfig.base.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  return graph.circular();
}

describe('import cycles', () => {
  it('finds a type-only cycle (the check can fail)', async () => {
    const cycles = await cyclesIn(['./fixtures/import-cycle']);
    expect(cycles).toEqual([['order.ts', 'shipment.ts']]);
  }, 60_000);

  it('has none in core, the adapters, the emulator and the Redis store', async () => {
    const cycles = await cyclesIn([
      '../../core/src',
      '../../ai-sdk/src',
      '../../langchain/src',
      '../../emulator/src',
      '../../redis/src',
      '../../testing/src',
    ]);
    expect(cycles).toEqual([]);
  }, 60_000);
});
