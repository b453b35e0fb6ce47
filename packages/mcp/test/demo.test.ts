import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the README demo (pnpm demo)', () => {
  it('lists the tools and calls them through the stdio bin, against the emulator', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@catalogkit/source', '--import', 'tsx', 'demo/demo.ts'],
      { cwd: packageDir, timeout: 110_000 },
    );
    expect(stdout).toContain(
      'tool search_catalog {"title":"Search the product catalog","readOnlyHint":true',
    );
    expect(stdout).toContain('"destructiveHint":true,"idempotentHint":false');
    expect(stdout).toMatch(/^2 of \d+ products for "trail running shoes"\.$/m);
    expect(stdout).toContain('structuredContent: tier token, 2 products in full');
    expect(stdout).toContain(
      'the host asks the user:\nChange your collection col_nope (1 change):',
    );
    expect(stdout).toContain('update_collection (isError true): Not found: Collection not found.');
  }, 120_000);
});
