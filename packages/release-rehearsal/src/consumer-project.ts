import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsumerSpec } from './consumers.js';
import { CommandError, cleanEnv, run } from './run.js';
import { classifyTscErrors, describeDependencyErrors } from './tsc-errors.js';

/** How one consumer project went. */
export interface ConsumerResult {
  name: string;
  /** Installed versions of the packages the spec shows, e.g. `ai 5.0.277`. */
  versions: string;
  install: 'ok' | 'failed';
  typecheck: 'ok' | 'failed' | 'not run';
  toolCall: 'ok' | 'failed' | 'not run' | 'skipped';
  seconds: number;
  /**
   * Errors strict tsc found inside third-party packages' own declarations (an upstream
   * release's, reported with its version, not failing the rehearsal).
   */
  dependencyErrors?: string;
  /** Seconds each phase took (install, type-check, tool call). */
  phases: string;
  error?: string;
}

/** Where the rehearsal's shared pieces are. */
export interface ConsumerContext {
  root: string;
  templates: string;
  registryUrl: string;
  /** The command that runs pnpm (the one running this rehearsal). */
  pnpm: string[];
  /** Variables for the tool call: CATALOG_* of the emulator, REDIS_URL. */
  env: NodeJS.ProcessEnv;
}

function tsconfig({ module, checkLibs }: ConsumerSpec): object {
  const node = module === 'esm' ? 'nodenext' : 'node16';
  return {
    compilerOptions: {
      strict: true,
      target: 'es2022',
      module: node,
      moduleResolution: node,
      types: ['node'],
      outDir: 'dist',
      rootDir: 'src',
      skipLibCheck: !checkLibs,
    },
    include: ['src'],
  };
}

/** Writes package.json, .npmrc, tsconfig.json and src/ of a fresh project. */
function writeProject(dir: string, spec: ConsumerSpec, context: ConsumerContext): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  const manifest = {
    name: `rehearsal-${spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    private: true,
    type: spec.module === 'esm' ? 'module' : 'commonjs',
    dependencies: spec.dependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, '.npmrc'),
    `registry=${context.registryUrl}/\nengine-strict=${spec.engineStrict}\nfund=false\naudit=false\n`,
  );
  // pnpm 11 and later read only the registry and auth from .npmrc (`engine-strict=true` there
  // is silently ignored); their other settings live in pnpm-workspace.yaml.
  if (spec.packageManager === 'pnpm') {
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), `engineStrict: ${spec.engineStrict}\n`);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(spec), null, 2));
  copyFileSync(join(context.templates, spec.template), join(dir, 'src', 'main.ts'));
  copyFileSync(join(context.templates, 'check.ts'), join(dir, 'src', 'check.ts'));
}

function installedVersions(dir: string, names: string[]): string {
  return names
    .map((name) => {
      try {
        const file = join(dir, 'node_modules', name, 'package.json');
        return `${name} ${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}`;
      } catch {
        return `${name} (transitive)`;
      }
    })
    .join(', ');
}

const tail = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A consumer's result before it runs (every step failed or not run yet), and the timer that
 * adds each phase's seconds to it ("install 4 / tsc 3 / call 1").
 */
export function startConsumerResult(name: string): {
  result: ConsumerResult;
  phase: <T>(label: string, work: () => Promise<T>) => Promise<T>;
  /** Marks the first step that did not finish as failed, with `reason`. */
  fail: (reason: string) => void;
  /** The result, with the seconds since it started. */
  done: () => ConsumerResult;
} {
  const started = performance.now();
  const result: ConsumerResult = {
    name,
    versions: '',
    install: 'failed',
    typecheck: 'not run',
    toolCall: 'not run',
    seconds: 0,
    phases: '',
  };
  const phase = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const phaseStarted = performance.now();
    try {
      return await work();
    } finally {
      const seconds = ((performance.now() - phaseStarted) / 1000).toFixed(0);
      result.phases += `${result.phases ? ' / ' : ''}${label} ${seconds}`;
    }
  };
  const fail = (reason: string) => {
    if (result.typecheck === 'ok') result.toolCall = 'failed';
    else if (result.install === 'ok') result.typecheck = 'failed';
    result.error = reason;
  };
  const done = () => ({ ...result, seconds: (performance.now() - started) / 1000 });
  return { result, phase, fail, done };
}

/**
 * Strict tsc (which also emits dist/). Fails on our errors; errors only inside a third-party
 * package's own declarations are recorded on `result` instead, with that package's version.
 */
async function typeCheck(
  dir: string,
  result: ConsumerResult,
  options: { cwd: string; timeoutMs: number },
): Promise<void> {
  try {
    await run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], options);
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    const { ours, dependencies } = classifyTscErrors(error.output, dir);
    if (ours.length > 0 || dependencies.size === 0) throw error;
    result.dependencyErrors = describeDependencyErrors(dependencies);
  }
}

/**
 * Creates the project, installs it once from the local registry, type-checks it under
 * `strict` and runs its one tool call against the emulator.
 */
export async function runConsumer(
  spec: ConsumerSpec,
  context: ConsumerContext,
  skip?: string,
): Promise<ConsumerResult> {
  const dir = join(context.root, spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  const { result, phase, fail, done } = startConsumerResult(spec.name);
  writeProject(dir, spec, context);
  const [pm = 'pnpm', ...pmArgs] = spec.packageManager === 'pnpm' ? context.pnpm : ['npm'];
  const options = { cwd: dir, timeoutMs: 600_000 };
  try {
    await phase('install', () => run(pm, [...pmArgs, 'install'], options));
    result.install = 'ok';
    result.versions = installedVersions(dir, spec.shown);
    await phase('tsc', () => typeCheck(dir, result, options));
    result.typecheck = 'ok';
    if (skip) {
      result.toolCall = 'skipped';
      result.error = skip;
      return done();
    }
    const env = cleanEnv(context.env);
    const called = (await phase('call', () =>
      run(process.execPath, [join('dist', 'main.js')], { ...options, env, timeoutMs: 120_000 }),
    )) as { stdout: string };
    const { stdout } = called;
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { ok?: boolean };
    result.toolCall = report.ok === true ? 'ok' : 'failed';
  } catch (error) {
    fail(tail(error));
  }
  return done();
}
