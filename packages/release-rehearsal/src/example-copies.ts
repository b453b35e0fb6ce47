/**
 * Every example, copied out of the repository as a user would copy it, installed with npm from
 * the local registry, built (if it has a build) and run through one offline scenario against
 * the emulator. What a user copies: the agents' one file (`src/agent.ts`, as their READMEs
 * say) into a fresh project, the web chat's whole folder, the mppx example's one file.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { builtJavaScript } from './page-budgets.js';
import { cleanEnv, run, startBackground } from './run.js';
import type { BundleSize } from './size.js';

/** How one example copy went. */
export interface ExampleResult {
  name: string;
  ok: boolean;
  seconds: number;
  /** The step that failed and the end of its output. */
  error?: string;
  /** The JavaScript its page ships, for an example with a page (the web chat). */
  page?: BundleSize;
}

/** Where the examples come from and where their copies go. */
export interface ExampleContext {
  /** The versioned, built copy of the workspace. */
  repo: string;
  root: string;
  templates: string;
  registryUrl: string;
  published: Record<string, string>;
  /** CATALOG_* of the emulator. */
  env: NodeJS.ProcessEnv;
  /**
   * Install the third-party versions the workspace's lockfile resolved for the example (its
   * node_modules in the installed copy), not the newest its ranges admit (`--newest`).
   */
  locked: boolean;
}

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

/** One example: what is copied and how its copy is checked. */
interface ExampleSpec {
  name: string;
  /** Folder in the repository whose package.json names the dependencies (if any). */
  source?: string;
  /** [from (in the repository), to (in the copy)] */
  copy: [string, string][];
  /** Dependencies beyond the example's own (e.g. what its README's install line adds). */
  extra: Record<string, string>;
  /** Keep the example's own package.json scripts and tsconfig (a whole-folder copy). */
  wholeFolder?: boolean;
  scenario(dir: string, env: NodeJS.ProcessEnv): Promise<void>;
  /** What its built page ships, measured after the build (size-budget.json `pages`). */
  measure?(dir: string): BundleSize;
}

const TOOLING = { typescript: '5.9.3', '@types/node': '24.19.2' };
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    types: ['node'],
    skipLibCheck: true,
    outDir: 'dist',
    rootDir: 'src',
  },
  include: ['src'],
};

/**
 * The environment of a copy's commands: {@link cleanEnv} without the `node_modules/.bin` folders
 * the package manager running the rehearsal put on PATH (a copy must not find the workspace's
 * vite, tsc or tsx), and the Node running the rehearsal first.
 */
function copyEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra);
  const path = (env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry && !/node_modules[\\/]\.bin[\\/]?$/.test(entry));
  return { ...env, PATH: [dirname(process.execPath), ...path].join(delimiter) };
}

/** The version installed for `name` in `folder` of the installed workspace copy, if any. */
function lockedVersion(folder: string | undefined, name: string): string | undefined {
  if (!folder) return undefined;
  try {
    const manifest = readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8');
    return (JSON.parse(manifest) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * `workspace:` ranges become the published versions; private workspace packages are dropped;
 * third-party ranges become the versions `lockedIn` has installed, when given.
 */
function publishedRanges(
  deps: Record<string, string> | undefined,
  published: Record<string, string>,
  lockedIn?: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(deps ?? {}).flatMap(([name, range]): [string, string][] => {
      if (!range.startsWith('workspace:')) return [[name, lockedVersion(lockedIn, name) ?? range]];
      const version = published[name];
      return version ? [[name, `^${version}`]] : [];
    }),
  );
}

/** Runs `node dist/main.js` and requires its last line to be JSON with `ok: true`. */
async function runMain(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { stdout } = await run(process.execPath, [join('dist', 'main.js')], {
    cwd: dir,
    env: copyEnv(env),
    timeoutMs: 120_000,
  });
  const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { ok?: boolean };
  if (report.ok !== true) throw new Error(`the scenario did not succeed:\n${stdout}`);
}

/** Starts the web chat's server (port 0), loads its page and stops it. */
async function webChatScenario(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const server = await startBackground(
    join(dir, 'node_modules', '.bin', 'tsx'),
    [join('src', 'main.ts')],
    { cwd: dir, env: copyEnv({ ...env, PORT: '0' }), ready: /open:\s+http\S+/ },
  );
  try {
    const url = /open:\s+(http\S+)/.exec(server.output())?.[1] ?? '';
    const page = await fetch(url);
    const html = await page.text();
    if (!page.ok || !/<script[^>]+src=/.test(html))
      throw new Error(`GET ${url}: ${page.status}\n${html.slice(0, 500)}`);
  } finally {
    await server.stop();
  }
}

function specs(repo: string, templates: string): ExampleSpec[] {
  const example = (folder: string) => join(repo, 'examples', folder);
  const agent = (folder: string): ExampleSpec => ({
    name: `examples/${folder}`,
    source: example(folder),
    copy: [
      [join(example(folder), 'src', 'agent.ts'), join('src', 'agent.ts')],
      [join(templates, 'examples', `${folder}.ts`), join('src', 'main.ts')],
    ],
    extra: {},
    scenario: runMain,
  });
  return [
    agent('ai-sdk-agent'),
    agent('langchain-agent'),
    agent('openai-agents-agent'),
    {
      name: 'examples/web-chat',
      source: example('web-chat'),
      copy: ['src', 'index.html', 'vite.config.ts', 'tsconfig.json', 'README.md'].map(
        (file): [string, string] => [join(example('web-chat'), file), file],
      ),
      extra: {},
      wholeFolder: true,
      scenario: webChatScenario,
      measure: (dir) => builtJavaScript(join(dir, 'dist', 'assets')),
    },
    {
      name: 'packages/mppx/examples',
      copy: [[join(repo, 'packages', 'mppx', 'examples', 'pay-with-budget.ts'), 'src/main.ts']],
      // The install line of the mppx README: mppx 0.11 with viem pinned below the release
      // that asks for mppx >= 0.17.
      extra: {
        '@catalogkit/core': 'published',
        '@catalogkit/mppx': 'published',
        '@catalogkit/emulator': 'published',
        mppx: '0.11.0',
        viem: '2.57.13',
      },
      scenario: async (dir, env) => {
        const { stdout } = await run(process.execPath, [join('dist', 'main.js')], {
          cwd: dir,
          env: copyEnv(env),
          timeoutMs: 120_000,
        });
        if (!/receipt /.test(stdout)) throw new Error(`no payment receipt printed:\n${stdout}`);
      },
    },
  ];
}

/** Writes the copy: its files, package.json, .npmrc and (for single files) a tsconfig. */
function writeCopy(dir: string, spec: ExampleSpec, context: ExampleContext): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  for (const [from, to] of spec.copy) cpSync(from, join(dir, to), { recursive: true });
  const own: Manifest = spec.source
    ? (JSON.parse(readFileSync(join(spec.source, 'package.json'), 'utf8')) as Manifest)
    : {};
  const lockedIn = context.locked ? spec.source : undefined;
  const extra = Object.fromEntries(
    Object.entries(spec.extra).map(([name, range]) => [
      name,
      range === 'published'
        ? `^${context.published[name] ?? 'missing'}`
        : (lockedVersion(lockedIn, name) ?? range),
    ]),
  );
  const manifest = {
    name: `copy-of-${spec.name.replace(/[^a-z0-9]+/g, '-')}`,
    private: true,
    type: 'module',
    scripts: spec.wholeFolder ? { build: own.scripts?.build ?? '' } : { build: 'tsc -p .' },
    dependencies: { ...publishedRanges(own.dependencies, context.published, lockedIn), ...extra },
    devDependencies: spec.wholeFolder
      ? publishedRanges(own.devDependencies, context.published, lockedIn)
      : TOOLING,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, '.npmrc'), `registry=${context.registryUrl}/\nfund=false\naudit=false\n`);
  if (!spec.wholeFolder) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
}

async function checkCopy(spec: ExampleSpec, context: ExampleContext): Promise<ExampleResult> {
  const started = performance.now();
  const dir = join(context.root, spec.name.replace(/[^a-z0-9]+/g, '-'));
  const options = { cwd: dir, env: copyEnv(), timeoutMs: 600_000 };
  let stage = 'copy';
  let page: BundleSize | undefined;
  try {
    writeCopy(dir, spec, context);
    stage = 'npm install';
    await run('npm', ['install'], options);
    stage = 'npm run build';
    await run('npm', ['run', 'build'], options);
    page = spec.measure?.(dir);
    stage = 'scenario';
    await spec.scenario(dir, context.env);
    return { name: spec.name, ok: true, seconds: (performance.now() - started) / 1000, page };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      name: spec.name,
      ok: false,
      seconds: (performance.now() - started) / 1000,
      error: `${stage}: ${detail}`,
      page,
    };
  }
}

/** Copies, installs, builds and runs every example; at most two at a time. */
export async function checkExampleCopies(context: ExampleContext): Promise<ExampleResult[]> {
  const all = specs(context.repo, context.templates);
  const results: ExampleResult[] = [];
  for (let i = 0; i < all.length; i += 2) {
    const pair = all.slice(i, i + 2).map((spec) => checkCopy(spec, context));
    results.push(...(await Promise.all(pair)));
  }
  return results;
}
