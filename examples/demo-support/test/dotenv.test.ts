import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDotEnv } from '../src/cli/dotenv.js';

const NAMES = ['CATALOGKIT_DOTENV_TEST_A', 'CATALOGKIT_DOTENV_TEST_B'];

afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

describe('loadDotEnv', () => {
  it('reads variables from the .env files that exist, without overriding the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogkit-dotenv-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'CATALOGKIT_DOTENV_TEST_A=from-file\nCATALOGKIT_DOTENV_TEST_B=from-file\n');
    process.env.CATALOGKIT_DOTENV_TEST_A = 'from-env';

    expect(loadDotEnv([join(dir, 'missing.env'), file])).toEqual([file]);
    expect(process.env.CATALOGKIT_DOTENV_TEST_A).toBe('from-env');
    expect(process.env.CATALOGKIT_DOTENV_TEST_B).toBe('from-file');
  });

  it('lets the first file that sets a variable win (the current directory before the root)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogkit-dotenv-'));
    const specific = join(dir, 'folder.env');
    const general = join(dir, 'root.env');
    writeFileSync(specific, 'CATALOGKIT_DOTENV_TEST_A=folder\n');
    writeFileSync(general, 'CATALOGKIT_DOTENV_TEST_A=root\nCATALOGKIT_DOTENV_TEST_B=root\n');

    loadDotEnv([specific, general]);
    expect(process.env.CATALOGKIT_DOTENV_TEST_A).toBe('folder');
    expect(process.env.CATALOGKIT_DOTENV_TEST_B).toBe('root');
  });
});
