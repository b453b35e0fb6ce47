import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  type ConsumerContext,
  type ConsumerResult,
  startConsumerResult,
} from './consumer-project.js';
import type { ConsumerSpec } from './consumers.js';
import { cleanEnv, run, startBackground } from './run.js';

/** Debian's Chromium (`apt-get install chromium`; .ci/run does), or CHROMIUM_PATH. */
export function chromiumPath(): { path?: string; skipReason?: string } {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(path)
    ? { path }
    : { skipReason: `${path} not found (apt-get install chromium; .ci/run does)` };
}

// One project for the page (bundled by Vite) and our server (run by Node, types stripped).
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'es2022',
    lib: ['es2022', 'dom', 'dom.iterable'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    noEmit: true,
    skipLibCheck: false,
  },
  include: ['src', 'server.ts'],
};

function writeViteProject(dir: string, spec: ConsumerSpec, context: ConsumerContext): void {
  const templates = join(context.templates, 'vite');
  mkdirSync(join(dir, 'src'), { recursive: true });
  const manifest = {
    name: 'rehearsal-vite',
    private: true,
    type: 'module',
    dependencies: spec.dependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, '.npmrc'), `registry=${context.registryUrl}/\n`);
  writeFileSync(join(dir, 'pnpm-workspace.yaml'), `engineStrict: ${spec.engineStrict}\n`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  copyFileSync(join(templates, 'index.html'), join(dir, 'index.html'));
  copyFileSync(join(templates, 'page.ts'), join(dir, 'src', 'page.ts'));
  copyFileSync(join(templates, 'server.ts'), join(dir, 'server.ts'));
}

/** Loads the page in headless Chromium and returns the outcome it writes to its title. */
async function loadInChromium(executablePath: string, url: string): Promise<{ ok?: boolean }> {
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.title.startsWith('{'), undefined, {
      timeout: 60_000,
    });
    const title = await page.title();
    const outcome = JSON.parse(title) as { ok?: boolean; error?: string };
    if (outcome.ok !== true) throw new Error(`the page failed: ${outcome.error ?? title}`);
    return outcome;
  } finally {
    await browser.close();
  }
}

/**
 * A Vite application: installs from the local registry, type-checks page and server (strict,
 * `skipLibCheck: false`), `vite build`, starts our server, then loads the page in Chromium;
 * the page mints through the server and sends one chat turn to the emulator.
 */
export async function runViteConsumer(
  spec: ConsumerSpec,
  context: ConsumerContext,
): Promise<ConsumerResult> {
  const dir = join(context.root, 'vite-page');
  const { result, phase, fail, done } = startConsumerResult(spec.name);
  writeViteProject(dir, spec, context);
  const [pm = 'pnpm', ...pmArgs] = context.pnpm;
  const options = { cwd: dir, timeoutMs: 600_000 };
  const bin = (name: string) => join(dir, 'node_modules', '.bin', name);
  try {
    await phase('install', () => run(pm, [...pmArgs, 'install'], options));
    result.install = 'ok';
    result.versions = spec.shown
      .map((name) => {
        const file = join(dir, 'node_modules', name, 'package.json');
        return `${name} ${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}`;
      })
      .join(', ');
    await phase('tsc', () => run(bin('tsc'), ['-p', '.'], options));
    await phase('vite build', () => run(bin('vite'), ['build'], options));
    result.typecheck = 'ok';
    const browser = chromiumPath();
    if (!browser.path) {
      result.toolCall = 'skipped';
      result.error = browser.skipReason;
      return done();
    }
    const server = await startBackground(process.execPath, ['server.ts'], {
      cwd: dir,
      env: cleanEnv(context.env),
      ready: /listening (\S+)/,
      timeoutMs: 60_000,
    });
    try {
      const url = /listening (\S+)/.exec(server.output())?.[1] ?? '';
      await phase('page', () => loadInChromium(browser.path ?? '', url));
      result.toolCall = 'ok';
    } finally {
      await server.stop();
    }
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return done();
}
