import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * The variables that switch the examples to the real service or a real model; blanked so a
 * developer's `.env` cannot switch the tests. (OPENAI_BASE_URL is left out: @ai-sdk/openai
 * refuses an empty one at import, and without a key it is never used.)
 */
const KEY_VARS = ['CATALOG_API_KEY', 'CATALOG_BASE_URL', 'CATALOG_MCP_URL', 'OPENAI_API_KEY'];

/**
 * The environment of a fresh machine: no catalog or model keys, no colour settings. The keys
 * are set to "" rather than deleted, because the examples load a `.env` file for variables
 * that are missing (and treat "" as unset).
 */
function offlineEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(CATALOG_|OPENAI_)/.test(name) || name === 'NO_COLOR' || name === 'FORCE_COLOR')
      delete env[name];
  }
  for (const name of KEY_VARS) env[name] = '';
  return env;
}

const runScript = (packageDir: string, script: string, env: NodeJS.ProcessEnv = offlineEnv()) =>
  run('pnpm', ['--silent', script], { cwd: packageDir, env, timeout: 60_000 });

/** The workspace's tsx, so an example can run in a directory outside the workspace. */
const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** Runs the example's entry point with `cwd` as its current directory; resolves how it failed. */
function failureOfStartIn(packageDir: string, cwd: string, env: NodeJS.ProcessEnv) {
  const main = join(packageDir, 'demo', 'main.ts');
  return run(TSX, ['--conditions=@catalogkit/source', main], { cwd, env, timeout: 60_000 }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Runs the demo, closes the pipe after the first output (as `| head -1` does), returns how it ended. */
function demoIntoClosedPipe(packageDir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['--silent', 'demo'], { cwd: packageDir, env: offlineEnv() });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The example's `demo` and `start` scripts, run as a user runs them (stdout piped). */
export function demoCommandSuite(options: { packageDir: string; framework: string }): void {
  describe(`pnpm demo and pnpm start (${options.framework})`, () => {
    it('demo runs offline end to end, prints plain text when piped, and exits 0', async () => {
      const { stdout } = await runScript(options.packageDir, 'demo');
      expect(stdout).not.toContain('\u001b[');
      expect(stdout).toContain(`catalogkit shopping agent (${options.framework})`);
      const steps = stdout.split('\n').filter((line) => /^(→|←| {2}[?✓✗])/.test(line));
      expect(steps[0]).toMatch(
        /^→ search_catalog \{"query":"trail running shoes under \$120 in GB"/,
      );
      expect(steps).toContain(
        '  ✓ approved update_collection (by --yes flag): approved in advance',
      );
      expect(steps.at(-2)).toMatch(/^→ update_collection \{"collection_id":"col_summer"/);
      expect(steps.at(-1)).toBe('← update_collection');
      expect(stdout).toMatch(/scripted shopper .*, offline: set OPENAI_API_KEY/);
      expect(stdout).toContain('auth tier: token');
      expect(stdout).toMatch(/retailers? for "[^"]+", commission rates in GB:/);
      expect(stdout).toContain('I added these to col_summer:');
      expect(stdout).toMatch(
        /Collection after the update \(read back from the emulator state\):\n.*"Summer" col_summer, 2 clauses/,
      );
    });

    it('start without --yes and without a terminal denies the update instead of asking', async () => {
      const { stdout } = await runScript(options.packageDir, 'start');
      expect(stdout).toContain('✗ denied update_collection (by no one to ask)');
      expect(stdout).toContain('I did not change col_summer');
      expect(stdout).not.toContain('Collection after the update');
    });

    it('exits 1 with a clear message when the service is only partly configured', async () => {
      const env = { ...offlineEnv(), CATALOG_BASE_URL: 'https://catalog.example.test' };
      const failure: unknown = await runScript(options.packageDir, 'start', env).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('missing: CATALOG_API_KEY, CATALOG_MCP_URL'),
      });
    });

    it('reads .env in the directory it runs in, with the environment winning over it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'catalogkit-example-'));
      writeFileSync(
        join(dir, '.env'),
        'CATALOG_BASE_URL=https://catalog.example.test\nCATALOG_MCP_URL=https://mcp.example.test\nCATALOG_API_KEY=filekey\n',
      );
      // The URLs come only from the file; the environment's blank key overrides the file's.
      const env = offlineEnv();
      delete env.CATALOG_BASE_URL;
      delete env.CATALOG_MCP_URL;
      const failure = await failureOfStartIn(options.packageDir, dir, env);
      expect(failure).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('missing: CATALOG_API_KEY.'),
      });
      expect((failure as { stderr: string }).stderr).not.toContain('filekey');
    });

    it('stops quietly when the reader closes the pipe early (pnpm demo | head)', async () => {
      const { code, stderr } = await demoIntoClosedPipe(options.packageDir);
      expect(stderr).not.toContain('EPIPE');
      expect(code).toBe(0);
    });
  });
}
