import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `pnpm chat` without a build step (the test script built the page): the entry starts the
// emulator and the server, and prints an address that serves the page.

const require = createRequire(import.meta.url);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
let child: ChildProcess | undefined;

afterEach(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child?.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
});

/** Resolves with everything printed up to and including the line that matches. */
function printed(running: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    running.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (pattern.test(out)) resolve(out);
    });
    running.once('exit', (code) =>
      reject(new Error(`exited with ${code} before printing:\n${out}`)),
    );
  });
}

describe('pnpm chat', () => {
  it('starts offline against the emulator in the process and prints the URL of the page', async () => {
    // Only PATH: no CATALOG_* or OPENAI_API_KEY from the machine running the tests.
    child = spawn(
      process.execPath,
      [require.resolve('tsx/cli'), '--conditions=@catalogkit/source', 'src/main.ts'],
      { cwd: PACKAGE_DIR, env: { PATH: process.env.PATH, PORT: '0' } },
    );
    const out = await printed(child, /Ctrl\+C/);
    expect(out).toMatch(/catalog: emulator in this process at http:\/\/127\.0\.0\.1:\d+\/api/);
    expect(out).toMatch(/model: {3}scripted shopper/);
    const url = out.match(/open: {4}(\S+)/)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
  });
});
