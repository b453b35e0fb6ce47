import type { Versions } from './pins.js';

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
const aiLibTypes = (input: ConsumerInputs) => ({
  '@types/json-schema': newest(input, '@types/json-schema'),
});

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

/** The versions a rehearsal installs: the packages just published and the others to try. */
export interface ConsumerInputs {
  /** Published version of each @catalogkit package, by name. */
  published: Record<string, string>;
  /** Each tracked third-party package's majors (pinned, or the registry's newest). */
  versions: Versions;
}

/** The newest of `name`'s newest supported major (or of `major`). */
function newest(input: ConsumerInputs, name: string, major?: number): string {
  const majors = input.versions[name] ?? [];
  const found = major === undefined ? majors.at(-1) : majors.find((m) => m.major === major);
  return found?.newest ?? `missing ${name}`;
}

/** The floor of `name`'s supported `major`. */
function lowest(input: ConsumerInputs, name: string, major: number): string {
  return input.versions[name]?.find((m) => m.major === major)?.lowest ?? `missing ${name}`;
}

function aiConsumers(input: ConsumerInputs, sdk: string): ConsumerSpec[] {
  return (input.versions.ai ?? []).flatMap(({ major, lowest: floor, newest: latest }) => {
    const versions =
      floor === latest
        ? [['lowest = newest', floor]]
        : [
            ['lowest', floor],
            ['newest', latest],
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
            ? newest(input, 'zod')
            : major === 5
              ? lowest(input, 'zod', 3)
              : lowest(input, 'zod', 4),
      },
      shown: ['ai', 'zod'],
    }));
  });
}

/** The consumers of {@link TYPESCRIPT_CONSUMERS}, our declarations type-checked too. */
function typeScriptConsumers(input: ConsumerInputs, published: (name: string) => string) {
  const ai = newest(input, 'ai', 7);
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
            zod: newest(input, 'zod'),
            typescript,
            ...aiLibTypes(input),
          }
        : { '@catalogkit/core': published('core'), zod: newest(input, 'zod'), typescript },
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
        ...core,
        '@catalogkit/redis': version('redis'),
        ioredis: newest(input, 'ioredis'),
        ai: newest(input, 'ai', 7),
        zod: newest(input, 'zod'),
        next: newest(input, 'next'),
        react: newest(input, 'react'),
        'react-dom': newest(input, 'react-dom'),
        '@types/react': newest(input, '@types/react'),
        '@types/react-dom': newest(input, '@types/react-dom'),
      },
      shown: ['next', 'react', 'ai', 'ioredis'],
      needsRedis: true,
    },
    {
      name: 'Vite 8 page in Chromium, ChatSession',
      template: 'vite',
      app: 'vite',
      module: 'esm',
      packageManager: 'pnpm',
      engineStrict: true,
      dependencies: { ...core, zod: newest(input, 'zod'), vite: newest(input, 'vite') },
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
        langchain: newest(input, 'langchain'),
        '@langchain/core': newest(input, '@langchain/core'),
        zod: newest(input, 'zod'),
      },
      shown: ['langchain', '@langchain/core', '@langchain/langgraph', 'zod'],
    },
    {
      name: 'CommonJS require (npm)',
      template: 'commonjs.ts',
      module: 'cjs',
      packageManager: 'npm',
      engineStrict: true,
      dependencies: { ...core, zod: newest(input, 'zod') },
      shown: ['zod'],
      checkLibs: true,
    },
    ...(input.versions.ioredis ?? []).map(({ major, newest: latest }) => ({
      name: `Redis store, ioredis ${major}`,
      template: 'redis.ts',
      module: 'esm' as const,
      packageManager: 'pnpm' as const,
      engineStrict: true,
      dependencies: {
        ...core,
        '@catalogkit/redis': version('redis'),
        ioredis: latest,
        zod: newest(input, 'zod'),
      },
      shown: ['ioredis'],
      needsRedis: true,
      checkLibs: major === 6,
    })),
  ];
  return specs.map((spec) => ({ ...spec, dependencies: { ...TOOLING, ...spec.dependencies } }));
}
