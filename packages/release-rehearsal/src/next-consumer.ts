import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ConsumerContext,
  type ConsumerResult,
  startConsumerResult,
} from './consumer-project.js';
import type { ConsumerSpec } from './consumers.js';
import { freePort } from './registry.js';
import { cleanEnv, run, startBackground } from './run.js';

// Next.js adds what else it needs. Strict; `skipLibCheck` as Next.js sets it (true): Next's
// own declarations need a newer lib than TypeScript 5.9's (`URLPatternInput`), and our
// declarations are checked by the TypeScript 7 and 5.4 consumers.
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['dom', 'dom.iterable', 'esnext'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    module: 'esnext',
    moduleResolution: 'bundler',
    resolveJsonModule: true,
    isolatedModules: true,
    esModuleInterop: true,
    jsx: 'react-jsx',
    incremental: false,
    plugins: [{ name: 'next' }],
  },
  include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts'],
  exclude: ['node_modules'],
};

/** Writes the App Router project: a layout, a page and the route handler under test. */
function writeNextProject(dir: string, spec: ConsumerSpec, context: ConsumerContext): void {
  const templates = join(context.templates, 'next');
  mkdirSync(join(dir, 'app', 'api', 'search'), { recursive: true });
  const manifest = { name: 'rehearsal-next', private: true, dependencies: spec.dependencies };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, '.npmrc'), `registry=${context.registryUrl}/\n`);
  // sharp's install script (image optimization, unused here) is not allowed to run.
  writeFileSync(
    join(dir, 'pnpm-workspace.yaml'),
    `engineStrict: ${spec.engineStrict}\nallowBuilds:\n  sharp: false\n`,
  );
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  copyFileSync(join(templates, 'layout.tsx'), join(dir, 'app', 'layout.tsx'));
  copyFileSync(join(templates, 'page.tsx'), join(dir, 'app', 'page.tsx'));
  copyFileSync(join(templates, 'route.ts'), join(dir, 'app', 'api', 'search', 'route.ts'));
}

interface UiChunk {
  type?: string;
  toolName?: string;
  output?: { tier?: string; response?: { products?: unknown[] } };
  delta?: string;
}

/** Reads the UI message stream: the search's output reached the client, then the answer. */
function checkStream(body: string): void {
  const chunks = body
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as UiChunk);
  const output = chunks.find((c) => c.type === 'tool-output-available')?.output;
  if (output?.tier !== 'token') throw new Error(`no token-tier search output in:\n${body}`);
  if (output.response?.products?.length !== 2)
    throw new Error('the search did not give 2 products');
  const text = chunks.map((c) => (c.type === 'text-delta' ? (c.delta ?? '') : '')).join('');
  if (text !== 'Done.') throw new Error(`the answer after the tool call is "${text}"`);
}

function installedVersion(dir: string, name: string): string {
  const file = join(dir, 'node_modules', name, 'package.json');
  return `${name} ${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}`;
}

/**
 * A Next.js App Router application: installs from the local registry, `next build` (which
 * type-checks it), `next start`, then one POST to the route handler, whose streamText calls
 * search_catalog against the emulator; the UI message stream must carry the search's output.
 */
export async function runNextConsumer(
  spec: ConsumerSpec,
  context: ConsumerContext,
): Promise<ConsumerResult> {
  const dir = join(context.root, 'next-app-router');
  const { result, phase, fail, done } = startConsumerResult(spec.name);
  writeNextProject(dir, spec, context);
  const [pm = 'pnpm', ...pmArgs] = context.pnpm;
  const env = cleanEnv({ ...context.env, NEXT_TELEMETRY_DISABLED: '1' });
  // The build gets no CATALOG_* settings and no reachable Redis: creating tools, clients and
  // stores at module scope must do no I/O and need no settings (they are read at the first call).
  const buildEnv = Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.startsWith('CATALOG_') && name !== 'REDIS_URL'),
  );
  buildEnv.REDIS_URL = 'redis://127.0.0.1:1';
  const next = join(dir, 'node_modules', '.bin', 'next');
  try {
    await phase('install', () => run(pm, [...pmArgs, 'install'], { cwd: dir, timeoutMs: 600_000 }));
    result.install = 'ok';
    result.versions = spec.shown.map((name) => installedVersion(dir, name)).join(', ');
    await phase('next build', () =>
      run(next, ['build'], { cwd: dir, env: buildEnv, timeoutMs: 600_000 }),
    );
    result.typecheck = 'ok';
    const port = await freePort();
    const server = await startBackground(
      next,
      ['start', '--port', String(port), '--hostname', '127.0.0.1'],
      { cwd: dir, env, ready: /Ready in|started server/i, timeoutMs: 120_000 },
    );
    try {
      await phase('call', async () => {
        const response = await fetch(`http://127.0.0.1:${port}/api/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'trail running shoes' }),
          signal: AbortSignal.timeout(60_000),
        });
        if (!response.ok) throw new Error(`POST /api/search: ${response.status}`);
        checkStream(await response.text());
      });
      result.toolCall = 'ok';
    } finally {
      await server.stop();
    }
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return done();
}
