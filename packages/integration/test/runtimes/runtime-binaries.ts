import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** A JavaScript runtime shipped as a binary inside an npm package (a devDependency here). */
export interface RuntimeBinary {
  name: 'bun' | 'deno';
  /** Absolute path of the executable, or undefined when it is not installed. */
  path: string | undefined;
  /** Why it is missing, for the skip message. */
  missing?: string;
}

/**
 * The per-platform package that holds the binary. `bun` and `deno` list these as optional
 * dependencies and would link them in a postinstall script, which pnpm does not run (only
 * esbuild is allowed to build), so the binary is taken from the platform package directly.
 */
function platformPackage(name: RuntimeBinary['name']): { pkg: string; file: string } {
  const { platform, arch } = process;
  if (name === 'bun') {
    const bunArch = arch === 'arm64' ? 'aarch64' : arch;
    const exe = platform === 'win32' ? 'bun.exe' : 'bun';
    return {
      pkg: `@oven/bun-${platform === 'win32' ? 'windows' : platform}-${bunArch}`,
      file: `bin/${exe}`,
    };
  }
  const denoTarget = platform === 'linux' ? `linux-${arch}-glibc` : `${platform}-${arch}`;
  return { pkg: `@deno/${denoTarget}`, file: platform === 'win32' ? 'deno.exe' : 'deno' };
}

/** Finds the runtime's binary through its npm package, without running anything. */
export function findRuntimeBinary(name: RuntimeBinary['name']): RuntimeBinary {
  const { pkg, file } = platformPackage(name);
  try {
    // Resolved from the wrapper package's folder: pnpm links optional deps only there.
    const wrapper = createRequire(require.resolve(`${name}/package.json`));
    const path = join(dirname(wrapper.resolve(`${pkg}/package.json`)), file);
    if (existsSync(path)) return { name, path };
    return { name, path: undefined, missing: `${path} does not exist` };
  } catch (error) {
    return { name, path: undefined, missing: `${pkg} is not installed (${String(error)})` };
  }
}

/** Environment for a runtime child: no update checks or telemetry (this machine is offline). */
export function runtimeEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1', NO_COLOR: '1' };
}

/** Runs a runtime binary and returns its stdout; rejects with its stderr on failure. */
export async function runRuntime(binary: string, args: string[], timeoutMs = 20_000) {
  try {
    const { stdout } = await run(binary, args, { env: runtimeEnv(), timeout: timeoutMs });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${binary} ${args.slice(0, 2).join(' ')} failed: ${stderr ?? String(error)}`);
  }
}

/**
 * Why a runtime's test is skipped, or undefined to run it. Outside CI a missing runtime is
 * skipped with this reason in the test's title; in CI it throws, failing the file.
 */
export function skipReason(missing: string | undefined): string | undefined {
  if (!missing) return undefined;
  if (process.env.CI) throw new Error(`runtime missing in CI: ${missing}`);
  return missing;
}

/** Debian's Chromium (`apt-get install chromium`), or CHROMIUM_PATH. */
export function findChromium(): { path: string | undefined; missing?: string } {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return { path };
  return { path: undefined, missing: `${path} not found (apt-get install chromium)` };
}
