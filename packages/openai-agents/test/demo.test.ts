import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the README demo (pnpm demo)', () => {
  it('shops against the emulator offline: search, approval, update', async () => {
    const { OPENAI_API_KEY: _offline, ...env } = process.env;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@catalogkit/source', '--import', 'tsx', 'demo/demo.ts'],
      { cwd: packageDir, env, timeout: 110_000 },
    );
    expect(stdout).toMatch(/^\? update_collection needs approval: \{"collection_id":"col_summer"/m);
    expect(stdout).toContain('← update_collection: 2 clauses now');
    expect(stdout).toMatch(
      /Collection in the emulator: \{"clause_id":"cl_\d+".*"product_ids":\["prod_\w+"\]\}/,
    );
  }, 120_000);
});
