import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('../workers/instance.ts', import.meta.url));

/** The instance script, bundled once per run. */
export interface InstanceScript {
  path: string;
  remove(): Promise<void>;
}

/**
 * Bundles ../workers/instance.ts with the workspace sources (`@catalogkit/source`) into one
 * ES module, as a serverless function is deployed: a process then starts in about a tenth
 * of a second of CPU instead of the most part of one through tsx, which is what lets the
 * suite start a fresh process per step and stay within its time on a loaded machine.
 */
export async function bundleInstanceScript(): Promise<InstanceScript> {
  const dir = await mkdtemp(join(tmpdir(), 'catalogkit-instance-'));
  const path = join(dir, 'instance.mjs');
  await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@catalogkit/source'],
    outfile: path,
    logLevel: 'warning',
    // ioredis is CommonJS: its `require` calls need one inside the ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
