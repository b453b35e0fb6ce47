import semver from 'semver';
import { run } from './run.js';

/** A fresh project outside the workspace that installs the packages from the local registry. */
export interface ConsumerSpec {
  name: string;
  /** File in templates/ that becomes src/main.ts. */
  template: string;
  module: 'esm' | 'cjs';
  packageManager: 'pnpm' | 'npm';
  /** engine-strict=true: the install fails if any package in the tree excludes this Node. */
  engineStrict: boolean;
  /** Exact versions (or ranges for third-party packages) to install. */
  dependencies: Record<string, string>;
  /** Packages whose installed versions the summary shows. */
  shown: string[];
  needsRedis?: boolean;
  /**
   * Type-check the .d.ts files of every installed package too (`skipLibCheck: false`). Slow
   * (zod's and the frameworks' types), so only where our own declarations are the point.
   */
  checkLibs?: boolean;
  /**
   * An application instead of a script: Next.js (`next build`, `next start`, one POST) or
   * Vite (`vite build`, our server, the page loaded in Chromium).
   */
  app?: 'next' | 'vite';
}

// Tools every consumer compiles with unless it says otherwise: TypeScript 5.9 and the types
// of Node 24 (the Node the consumers run on: the project's, that runs the rehearsal).
const TOOLING = { typescript: '5.9.3', '@types/node': '24.19.2' };

/**
 * `ai` 7's declarations (`@ai-sdk/provider`) import `json-schema` without depending on its
 * types: with `skipLibCheck: false`, "TS7016: Could not find a declaration file for module
 * 'json-schema'" unless the application installs them, as these consumers do.
 */
const AI_LIB_TYPES = { '@types/json-schema': '^7.0.15' };

/**
 * Consumers type-checked strict with `skipLibCheck: false` on other TypeScript versions: the
 * current major (with `ai` 7 newest and the AI SDK adapter), and the lowest we support (README)
 * on core alone, since `ai` 7's own declarations need TypeScript >= 5.7 (`Uint8Array<T>`: "TS2315:
 * Type 'Uint8Array' is not generic" on 5.4) and `@types/json-schema`, which it does not depend on.
 */
const TYPESCRIPT_CONSUMERS = [
  { label: 'TypeScript 7', typescript: '7.0.2', sdk: true },
  { label: 'TypeScript 5.4', typescript: '5.4.5', sdk: false },
];

/** The lowest and the newest version of each supported major of a peer (from its range). */
export interface MajorVersions {
  major: number;
  lowest: string;
  newest: string;
}

/**
 * For each `^x.y.z` alternative of `range`: its floor (what the tests run) and the newest
 * version of that major on the registry npm is configured with.
 */
export async function majorsOf(name: string, range: string, cwd: string): Promise<MajorVersions[]> {
  const { stdout } = await run('npm', ['view', name, 'versions', '--json'], {
    cwd,
    timeoutMs: 120_000,
  });
  const published = (JSON.parse(stdout) as string[]).filter((v) => !semver.prerelease(v));
  return range.split('||').map((alternative) => {
    const lowest = semver.minVersion(alternative.trim())?.version ?? alternative;
    const newest = semver.maxSatisfying(published, alternative.trim()) ?? lowest;
    return { major: semver.major(lowest), lowest, newest };
  });
}

/** The versions a rehearsal installs: the packages just published and the peers to try. */
export interface ConsumerInputs {
  /** Published version of each @catalogkit package, by name. */
  published: Record<string, string>;
  ai: MajorVersions[];
  zodFloors: { v3: string; v4: string };
  zodNewest: string;
  ioredis: MajorVersions[];
  langchain: string;
  langchainCore: string;
  /** Newest Next.js 16 and React 19. */
  next: string;
  react: string;
  /** Newest Vite 8. */
  vite: string;
}

function aiConsumers(input: ConsumerInputs, sdk: string): ConsumerSpec[] {
  return input.ai.flatMap(({ major, lowest, newest }) => {
    const versions =
      lowest === newest
        ? [['lowest = newest', lowest]]
        : [
            ['lowest', lowest],
            ['newest', newest],
          ];
    return versions.map(([label, version]) => ({
      name: `ai ${major} ${label}`,
      template: major === 5 ? 'ai-v5.ts' : 'ai-v6.ts',
      module: 'esm' as const,
      packageManager: 'pnpm' as const,
      // The consumers run on Node 24 (the project's), which every package here admits.
      engineStrict: true,
      dependencies: {
        '@catalogkit/ai-sdk': sdk,
        ai: version ?? '',
        // The lowest ai runs with the lowest zod we support (3 for ai 5, 4 beyond).
        zod:
          label === 'newest'
            ? input.zodNewest
            : major === 5
              ? input.zodFloors.v3
              : input.zodFloors.v4,
      },
      shown: ['ai', 'zod'],
    }));
  });
}

/** The consumers of {@link TYPESCRIPT_CONSUMERS}, our declarations type-checked too. */
function typeScriptConsumers(input: ConsumerInputs, published: (name: string) => string) {
  const ai = input.ai.find(({ major }) => major === 7)?.newest ?? 'missing';
  return TYPESCRIPT_CONSUMERS.map(
    ({ label, typescript, sdk }): ConsumerSpec => ({
      name: sdk ? `${label}, ai 7 newest` : `${label}, core`,
      template: sdk ? 'ai-v6.ts' : 'core.ts',
      module: 'esm',
      packageManager: 'pnpm',
      engineStrict: true,
      dependencies: sdk
        ? {
            '@catalogkit/ai-sdk': published('ai-sdk'),
            ai,
            zod: input.zodNewest,
            typescript,
            ...AI_LIB_TYPES,
          }
        : { '@catalogkit/core': published('core'), zod: input.zodNewest, typescript },
      shown: sdk ? ['typescript', 'ai', 'zod'] : ['typescript', 'zod'],
      checkLibs: true,
    }),
  );
}

/** Every consumer project of the rehearsal. */
export function consumerSpecs(input: ConsumerInputs): ConsumerSpec[] {
  const version = (name: string) => input.published[`@catalogkit/${name}`] ?? 'missing';
  const core = { '@catalogkit/core': version('core') };
  const specs: ConsumerSpec[] = [
    ...aiConsumers(input, version('ai-sdk')),
    ...typeScriptConsumers(input, version),
    {
      name: 'Next.js 16 route handler, streamText',
      template: 'next',
      app: 'next',
      module: 'esm',
      packageManager: 'pnpm',
      engineStrict: true,
      dependencies: {
        '@catalogkit/ai-sdk': version('ai-sdk'),
        ai: input.ai.find(({ major }) => major === 7)?.newest ?? 'missing',
        zod: input.zodNewest,
        next: input.next,
        react: input.react,
        'react-dom': input.react,
        '@types/react': '^19.0.0',
        '@types/react-dom': '^19.0.0',
      },
      shown: ['next', 'react', 'ai'],
    },
    {
      name: 'Vite 8 page in Chromium, ChatSession',
      template: 'vite',
      app: 'vite',
      module: 'esm',
      packageManager: 'pnpm',
      engineStrict: true,
      dependencies: { ...core, zod: input.zodNewest, vite: input.vite },
      shown: ['vite', 'zod'],
    },
    {
      name: 'LangChain createAgent',
      template: 'langchain.ts',
      module: 'esm',
      packageManager: 'pnpm',
      engineStrict: true,
      dependencies: {
        '@catalogkit/langchain': version('langchain'),
        langchain: input.langchain,
        '@langchain/core': input.langchainCore,
        zod: input.zodNewest,
      },
      shown: ['langchain', '@langchain/core', '@langchain/langgraph', 'zod'],
    },
    {
      name: 'CommonJS require (npm)',
      template: 'commonjs.ts',
      module: 'cjs',
      packageManager: 'npm',
      engineStrict: true,
      dependencies: { ...core, zod: input.zodNewest },
      shown: ['zod'],
      checkLibs: true,
    },
    ...input.ioredis.map(({ major, newest }) => ({
      name: `Redis store, ioredis ${major}`,
      template: 'redis.ts',
      module: 'esm' as const,
      packageManager: 'pnpm' as const,
      engineStrict: true,
      dependencies: {
        ...core,
        '@catalogkit/redis': version('redis'),
        ioredis: newest,
        zod: input.zodNewest,
      },
      shown: ['ioredis'],
      needsRedis: true,
      checkLibs: major === 6,
    })),
  ];
  return specs.map((spec) => ({ ...spec, dependencies: { ...TOOLING, ...spec.dependencies } }));
}
