import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `.env` files the examples read, most specific first: the current directory's, then the
 * repository root's. The first file to set a variable wins, since loading never overrides.
 */
const ENV_FILES = [
  `${process.cwd()}/.env`,
  fileURLToPath(new URL('../../../.env', import.meta.url)),
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
