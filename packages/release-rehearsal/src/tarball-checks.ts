import { join } from 'node:path';
import { run } from './run.js';

/** The outcome of publint and attw on one published tarball. */
export interface TarballCheck {
  name: string;
  publint: 'ok' | string;
  attw: 'ok' | string;
}

const firstLines = (text: string) => text.trim().split('\n').slice(0, 40).join('\n');

/**
 * Lints a tarball as published: `publint --strict` (package.json and files) and `attw`
 * (@arethetypeswrong/cli: types under node10, node16 CJS and ESM, and bundlers).
 */
export async function checkTarball(
  name: string,
  tarball: string,
  binDir: string,
): Promise<TarballCheck> {
  const options = { cwd: join(tarball, '..'), timeoutMs: 300_000 };
  const [publint, attw] = await Promise.all([
    run(join(binDir, 'publint'), ['run', '--strict', '--pack', 'false', tarball], options).then(
      () => 'ok' as const,
      (error: Error) => firstLines(error.message),
    ),
    // Default (strict) profile: node10 too, which finds subpaths through the typesVersions
    // the publish hook (.pnpmfile.cjs) writes.
    run(join(binDir, 'attw'), [tarball, '--format', 'ascii', '--no-color'], options).then(
      () => 'ok' as const,
      (error: Error) => firstLines(error.message),
    ),
  ]);
  return { name, publint, attw };
}
