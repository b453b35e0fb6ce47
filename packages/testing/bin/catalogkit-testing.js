#!/usr/bin/env node
// The `catalogkit-testing` command: runs the built CLI (dist/cli.js). Committed, not built, so the
// file a package manager links as the bin exists from the first `pnpm install`, before any build.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write(
    'catalogkit-testing is not built: run `pnpm build` at the repository root (or run src/cli.ts with tsx).\n',
  );
  process.exitCode = 1;
}
