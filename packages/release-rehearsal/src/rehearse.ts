/**
 * `pnpm release:rehearse`: a release, end to end, without the real registry. In a temporary
 * copy of the workspace it versions the packages (changesets), builds them, publishes them
 * with `pnpm publish -r` to a Verdaccio on loopback, lints every tarball (publint, attw),
 * measures bundle sizes against size-budget.json, then installs the packages from that
 * registry into fresh projects and runs one tool call in each against the emulator, itself
 * started with `npx @catalogkit/emulator` from the same registry; measures the pages of
 * size-budget.json `pages` from the published packages, zod included (src/page-budgets.ts);
 * copies every example out of the repository, installs it with npm from that registry, builds
 * it (the web chat's page measured too) and runs one scenario (src/example-copies.ts). Exits
 * non-zero on any failure.
 *
 * Consumers install the third-party versions recorded in `pins.json` (src/pins.ts); `--newest`
 * installs the registry's newest of each supported major instead and prints the drift table.
 * `--keep` keeps only the tarballs (printed last, with the verdict: after a failed rehearsal they
 * are for inspection, not for release); `--keep-all` keeps the whole temporary folder; `--head`
 * rehearses the last commit instead of the working tree (uncommitted and untracked files left
 * out); `--source DIR` rehearses another checkout; `--reuse DIR/repo` starts from the versioned,
 * built copy a run with `--keep-all` left (to iterate on the later steps).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConsumerResult, runConsumer } from './consumer-project.js';
import { consumerSpecs } from './consumers.js';
import { checkExampleCopies, type ExampleResult } from './example-copies.js';
import { runNextConsumer } from './next-consumer.js';
import { type MeasuredPage, measurePages, overPageBudget, WEB_CHAT_PAGE } from './page-budgets.js';
import { driftRows, pinnedVersions, registryVersions, type Versions } from './pins.js';
import { freePort, startRegistry } from './registry.js';
import { cleanEnv, inPool, run } from './run.js';
import { type Service, startEmulatorFromRegistry, startRedis } from './services.js';
import {
  measure,
  overBudget,
  readBudgets,
  readBundledBudgets,
  readPageBudgets,
  type SizeReport,
} from './size.js';
import { table } from './table.js';
import { checkTarball, type TarballCheck } from './tarball-checks.js';
import { runViteConsumer } from './vite-consumer.js';
import { copyWorkspace, publicPackages, readManifest, repoRoot } from './workspace.js';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(here, 'node_modules', '.bin');
const timings: [string, number][] = [];
// The rehearsal is a command-line program: its report goes to stdout.
const print = (text: string) => process.stdout.write(`${text}\n`);

async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`▸ ${label}\n`);
  try {
    return await work();
  } finally {
    timings.push([label, (performance.now() - started) / 1000]);
  }
}

function optionValue(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** pnpm as this rehearsal was started (through npx on a fresh machine), else from PATH. */
function pnpmCommand(): string[] {
  const execPath = process.env.npm_execpath;
  if (!execPath || !/pnpm/.test(execPath)) return ['pnpm'];
  // pnpm 12 is a native executable; pnpm 10 and earlier were a script for node.
  return /\.[cm]?js$/.test(execPath) ? [process.execPath, execPath] : [execPath];
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** Copies the workspace, installs it, applies the pending changesets and builds. */
async function prepareCopy(repo: string, pnpm: string[]): Promise<void> {
  const [pm = 'pnpm', ...pmArgs] = pnpm;
  await step('copy the workspace', async () =>
    copyWorkspace(optionValue('--source') ?? repoRoot, repo, process.argv.includes('--head')),
  );
  await step('install (shared pnpm store)', () =>
    run(pm, [...pmArgs, 'install', '--prefer-offline'], { cwd: repo }),
  );
  await step('changeset version', () =>
    run(pm, [...pmArgs, 'exec', 'changeset', 'version'], { cwd: repo }),
  );
  const filters = publicPackages(repo).flatMap((p) => ['--filter', p.manifest.name]);
  await step('build', () =>
    run(pm, [...pmArgs, '-r', '--workspace-concurrency=2', ...filters, 'run', 'build'], {
      cwd: repo,
    }),
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  const keepAll = process.argv.includes('--keep-all');
  const keepTarballs = process.argv.includes('--keep');
  let kept: string | undefined;
  const work = mkdtempSync(join(tmpdir(), 'catalogkit-rehearsal-'));
  let repo = join(work, 'repo');
  const pnpm = pnpmCommand();
  const [pm = 'pnpm', ...pmArgs] = pnpm;
  const services: Service[] = [];
  const pending: Promise<unknown>[] = [];
  let failed = false;
  try {
    const reuse = optionValue('--reuse');
    if (reuse)
      repo = reuse; // a copy a previous run kept (--keep-all), already versioned and built
    else await prepareCopy(repo, pnpm);
    const packages = publicPackages(repo);
    const names = packages.map((p) => p.manifest.name);

    const budgets = readBudgets(join(here, 'size-budget.json'));
    const sizes: SizeReport[] = await step('measure sizes', () =>
      Promise.all(packages.map((p) => measure(p.dir, p.manifest, budgets[p.manifest.name]))),
    );
    // Entries with their parser bundled in (the links package with markdown-it), each against
    // its own budget; a package listed there that is not published fails too.
    const withParsers: SizeReport[] = await step('measure sizes with parser dependencies', () =>
      Promise.all(
        Object.entries(readBundledBudgets(join(here, 'size-budget.json'))).map(([name, entry]) => {
          const p = packages.find((candidate) => candidate.manifest.name === name);
          if (!p)
            return { name: `${name} (not published)`, minified: 0, gzipped: 0, budget: undefined };
          return measure(p.dir, p.manifest, entry.budget, entry.bundled);
        }),
      ),
    );

    const uplink = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' })
      .trim()
      .replace(/\/$/, '');
    const registry = await step('start Verdaccio', () =>
      startRegistry(join(work, 'registry'), uplink, binDir),
    );
    services.push(registry);
    const registryEnv = cleanEnv({
      npm_config_userconfig: registry.npmrc,
      npm_config_registry: `${registry.url}/`,
    });
    await step('pnpm publish -r', () =>
      run(pm, [...pmArgs, 'publish', '-r', '--registry', `${registry.url}/`, '--no-git-checks'], {
        cwd: repo,
        env: registryEnv,
      }),
    );
    const published = Object.fromEntries(
      packages.map((p) => [p.manifest.name, readManifest(p.dir).version]),
    );

    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    // Independent of each other, so run side by side: tarball checks (CPU), the emulator
    // install through npx (network) and the peer version look-ups.
    const checking = step('publint --strict and attw on every tarball', async () => {
      const specs = names.map((n) => `${n}@${published[n]}`);
      const { stdout } = await run('npm', ['pack', ...specs, '--json'], {
        cwd: tarballs,
        env: registryEnv,
      });
      const packed = JSON.parse(stdout) as { name: string; filename: string }[];
      return inPool(
        2,
        packed.map((t) => () => checkTarball(t.name, join(tarballs, t.filename), binDir)),
      );
    });
    const emulatorDir = join(work, 'npx-emulator');
    const starting = step('npx @catalogkit/emulator (from the registry)', () =>
      startEmulatorFromRegistry(emulatorDir, published['@catalogkit/emulator'] ?? '', registryEnv),
    ).then((emulator) => {
      services.push(emulator);
      return emulator;
    });
    const lookingUp = step('the versions to try (pins.json, or --newest)', () =>
      versionsToTry(repo),
    );
    const pagesDir = join(work, 'page-sizes');
    mkdirSync(pagesDir);
    const measuringPages = step('page sizes from the published packages, zod included', () =>
      measurePages({
        dir: pagesDir,
        registryUrl: registry.url,
        coreVersion: published['@catalogkit/core'] ?? '',
        zodVersion: readManifest(join(repo, 'packages', 'core')).devDependencies?.zod ?? '',
      }),
    );
    pending.push(checking, starting, lookingUp, measuringPages);
    const [checks, emulator, versions, pages] = await Promise.all([
      checking,
      starting,
      lookingUp,
      measuringPages,
    ]);
    const redis = await step('redis-server', () => startRedis(join(work, 'redis'), freePort));
    if (redis.service) services.push(redis.service);

    const consumers: ConsumerResult[] = await step(
      'consumers: install, type-check, one tool call',
      () =>
        inPool(
          3,
          consumerSpecs({ published, versions }).map((spec) => () => {
            process.stdout.write(`  · ${spec.name}\n`);
            const context = {
              root: join(work, 'consumers'),
              templates: join(here, 'templates'),
              registryUrl: registry.url,
              pnpm,
              env: { ...emulator.env, REDIS_URL: redis.url },
            };
            if (spec.app === 'next') return runNextConsumer(spec, context);
            if (spec.app === 'vite') return runViteConsumer(spec, context);
            return runConsumer(
              spec,
              context,
              spec.needsRedis && !redis.url ? redis.skipReason : undefined,
            );
          }),
        ),
    );

    const examples = await step('examples: copied out, npm install, build, one scenario', () =>
      checkExampleCopies({
        repo,
        root: join(work, 'examples'),
        templates: join(here, 'templates'),
        registryUrl: registry.url,
        published,
        env: emulator.env,
        locked: !process.argv.includes('--newest'),
      }),
    );

    failed = [report(checks, sizes, consumers, published), reportWithParsers(withParsers)].some(
      Boolean,
    );
    failed = reportExamples(examples) || failed;
    const webChat = examples.find((example) => example.name === 'examples/web-chat')?.page;
    failed =
      reportPages(webChat ? [...pages, { name: WEB_CHAT_PAGE, ...webChat }] : pages) || failed;
    if (!webChat) print(`\n${WEB_CHAT_PAGE}: not measured (its copy did not build): FAILED`);
    failed ||= !webChat;
  } catch (error) {
    failed = true;
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    await Promise.allSettled(pending); // nothing may start after the services are stopped
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    if (keepAll) kept = work;
    else {
      if (keepTarballs) kept = keepTarballsOf(work);
      rmSync(work, { recursive: true, force: true });
    }
  }
  print(
    `\n${table(
      ['step', 'seconds'],
      timings.map(([label, s]) => [label, s.toFixed(1)]),
    )}`,
  );
  print(
    `\nrehearsal ${failed ? 'FAILED' : 'passed'} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (kept)
    print(
      `${keepAll ? 'kept the rehearsal folder' : 'kept the tarballs'} in ${kept} (rehearsal ${failed ? 'FAILED, exit 1: not for release' : 'passed, exit 0'})`,
    );
  process.exitCode = failed ? 1 : 0;
}

/** Moves the packed tarballs (if any were made) out of the rehearsal folder; their new folder. */
function keepTarballsOf(work: string): string | undefined {
  const from = join(work, 'tarballs');
  if (!existsSync(from)) return undefined;
  const to = mkdtempSync(join(tmpdir(), 'catalogkit-tarballs-'));
  for (const file of readdirSync(from).filter((f) => f.endsWith('.tgz')))
    renameSync(join(from, file), join(to, file));
  return to;
}

/** Prints the pages against their budgets; true when one is past its budget or has none. */
function reportPages(pages: MeasuredPage[]): boolean {
  const budgets = readPageBudgets(join(here, 'size-budget.json'));
  const rows = pages.map((page) => ({ ...page, budget: budgets[page.name] }));
  print(
    `\n${table(
      ['page (published packages, everything bundled)', 'min', 'min+gz', 'budget (min+gz)'],
      rows.map((page) => [
        page.name,
        kB(page.minified),
        kB(page.gzipped),
        page.budget === undefined
          ? 'none set: FAILED'
          : `${kB(page.budget)} ${overPageBudget(page) ? 'OVER' : 'ok'}`,
      ]),
    )}`,
  );
  return rows.some(overPageBudget);
}

/** Prints how each example copy went; true when one failed. */
function reportExamples(examples: ExampleResult[]): boolean {
  print(
    `\n${table(
      ['example (copied out, npm)', 'install, build, scenario', 'seconds'],
      examples.map((e) => [e.name, e.ok ? 'ok' : 'FAILED', e.seconds.toFixed(0)]),
    )}`,
  );
  for (const example of examples.filter((e) => e.error))
    print(`\n${example.name}: ${example.error}`);
  return examples.some((e) => !e.ok);
}

/** What the consumers install: the pins, or with `--newest` the registry's newest (and the drift). */
async function versionsToTry(repo: string): Promise<Versions> {
  if (!process.argv.includes('--newest')) return pinnedVersions(repo);
  const newest = await registryVersions(repo);
  let pinned: Versions = {};
  try {
    pinned = pinnedVersions(repo);
  } catch {
    // the drift table shows "none" where no pin fits
  }
  print(
    `\nDrift: the registry's newest against pins.json\n${table(
      ['package', 'major', 'pinned', 'newest', ''],
      driftRows(pinned, newest),
    )}`,
  );
  return newest;
}

/** The entries measured with their parser: a table, and whether one is over its budget. */
function reportWithParsers(sizes: SizeReport[]): boolean {
  print(
    `\n${table(
      ['entry with its parser bundled', 'min', 'min+gz', 'budget (min+gz)'],
      sizes.map((size) => [
        size.name,
        kB(size.minified),
        kB(size.gzipped),
        size.budget === undefined
          ? 'none set: FAILED'
          : `${kB(size.budget)} ${overBudget(size) ? 'OVER' : 'ok'}`,
      ]),
    )}`,
  );
  return sizes.some(overBudget);
}

function report(
  checks: TarballCheck[],
  sizes: SizeReport[],
  consumers: ConsumerResult[],
  published: Record<string, string>,
): boolean {
  print(
    `\nPublished to the local registry: ${Object.entries(published)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')}\n`,
  );
  print(
    table(
      ['package', 'publint --strict', 'attw', 'min', 'min+gz', 'budget (min+gz)'],
      checks.map((check) => {
        const size = sizes.find((s) => s.name === check.name);
        const verdict = size && !overBudget(size) ? 'ok' : 'OVER';
        return [
          check.name,
          check.publint === 'ok' ? 'ok' : 'FAILED',
          check.attw === 'ok' ? 'ok' : 'FAILED',
          size ? kB(size.minified) : '?',
          size ? kB(size.gzipped) : '?',
          size?.budget === undefined ? 'none set: FAILED' : `${kB(size.budget)} ${verdict}`,
        ];
      }),
    ),
  );
  print(
    `\n${table(
      ['consumer', 'installed', 'install', 'strict tsc', 'tool call', 'seconds (phases)'],
      consumers.map((c) => [
        c.name,
        c.versions,
        c.install,
        c.dependencyErrors ? `${c.typecheck} (a dependency's own: below)` : c.typecheck,
        c.toolCall,
        `${c.seconds.toFixed(0)} (${c.phases})`,
      ]),
    )}`,
  );
  for (const check of checks.filter((c) => c.publint !== 'ok' || c.attw !== 'ok')) {
    print(
      `\n${check.name}:\n${check.publint === 'ok' ? '' : check.publint}\n${check.attw === 'ok' ? '' : check.attw}`,
    );
  }
  for (const consumer of consumers.filter((c) => c.error))
    print(`\n${consumer.name}: ${consumer.error}`);
  for (const consumer of consumers.filter((c) => c.dependencyErrors))
    print(`\n${consumer.name}, not ours (not failing):\n${consumer.dependencyErrors}`);
  const consumerFailed = consumers.some(
    (c) =>
      c.install !== 'ok' ||
      c.typecheck !== 'ok' ||
      c.toolCall === 'failed' ||
      c.toolCall === 'not run',
  );
  const skippedInCi = Boolean(process.env.CI) && consumers.some((c) => c.toolCall === 'skipped');
  return (
    checks.some((c) => c.publint !== 'ok' || c.attw !== 'ok') ||
    sizes.some(overBudget) ||
    consumerFailed ||
    skippedInCi
  );
}

await main();
