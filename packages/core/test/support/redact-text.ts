import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRedactor } from '../../src/http/redact.js';

/** `text` through a redactor of `secrets`: what a client's error or tool output shows. */
export const redactSecrets = (text: string, secrets: readonly (string | undefined)[]) =>
  createRedactor(...secrets)(text);

/**
 * The redaction module of `src/http/redact.ts` at a git `revision`, written to a temporary
 * directory and imported from there (no copy is committed), to compare with the current one.
 */
export async function redactModuleAt<T>(revision: string): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'redact-at-'));
  try {
    const source = execFileSync('git', ['show', `${revision}:./src/http/redact.ts`], {
      encoding: 'utf8',
    });
    writeFileSync(join(dir, 'redact.ts'), source);
    return (await import(pathToFileURL(join(dir, 'redact.ts')).href)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
