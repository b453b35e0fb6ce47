import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `.env` files the examples read: the repository root's, then the current directory's. */
const ENV_FILES = [
  fileURLToPath(new URL('../../../.env', import.meta.url)),
  `${process.cwd()}/.env`,
];

/**
 * Loads keys (CATALOG_*, OPENAI_*) from `.env` files when present, so nobody has to export
 * them in the shell or, worse, write them into code. Variables already set in the
 * environment win (Node's `process.loadEnvFile` never overrides them). Git ignores `.env`.
 */
export function loadDotEnv(files: readonly string[] = ENV_FILES): string[] {
  const loaded = [...new Set(files)].filter((file) => existsSync(file));
  for (const file of loaded) process.loadEnvFile(file);
  return loaded;
}
