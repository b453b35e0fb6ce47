/*
 * The two lines of provider packages the kit is proven on (peerDependencies admit exactly
 * these): the lowest (AI SDK 5 with @ai-sdk/* 2.x, @langchain/core 0.3 with @langchain/openai
 * 0.6) and the newest (AI SDK 7 with @ai-sdk/* 4.x, @langchain/core 1.x with @langchain/openai
 * 1.x); @openai/agents 0.20 on both. The newest line is what the dev dependencies install; the
 * lowest line runs the same files with every import of those packages (the test files', the
 * kit's and the adapters' sources, and @langchain/openai 0.6's own) sent to the aliased dev
 * dependencies, the way a project on those versions would load them.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vitest/config';

/** Which line a run is on (`inject('line')`; the newest when not provided). */
export type Line = 'lowest' | 'newest';

declare module 'vitest' {
  export interface ProvidedContext {
    line: Line;
  }
}

/** Each package (and its subpaths) and the aliased dev dependency holding its lowest version. */
export const LOWEST_ALIASES: readonly (readonly [RegExp, string])[] = [
  [/^ai(\/.*)?$/, 'ai-v5'],
  [/^@ai-sdk\/openai(\/.*)?$/, 'ai-sdk-openai-v2'],
  [/^@ai-sdk\/anthropic(\/.*)?$/, 'ai-sdk-anthropic-v2'],
  [/^@ai-sdk\/google(\/.*)?$/, 'ai-sdk-google-v2'],
  [/^@langchain\/core(\/.*)?$/, 'langchain-core-03'],
  [/^@langchain\/openai(\/.*)?$/, 'langchain-openai-03'],
];

/** The aliases resolve from this package, where they are installed, whoever imports them. */
const KIT = fileURLToPath(new URL('../package.json', import.meta.url));

/**
 * Sends every import of a package of the lowest line to its alias. A resolver plugin, not
 * `resolve.alias`, so that an alias resolves from the kit whoever imports it (the adapters'
 * sources, @langchain/openai 0.6 inside the store).
 */
export function lowestLine(): Plugin {
  return {
    name: 'catalogkit-testing:lowest-line',
    enforce: 'pre',
    resolveId(source, _importer, options) {
      for (const [pattern, alias] of LOWEST_ALIASES) {
        const match = pattern.exec(source);
        if (match)
          return this.resolve(`${alias}${match[1] ?? ''}`, KIT, { ...options, skipSelf: true });
      }
      return null;
    },
  };
}

/**
 * @langchain/openai 0.6 is run through the resolver (not loaded by Node as is), so its own
 * `@langchain/core` imports reach 0.3 too: pnpm links it to the workspace's core 1.x, a pair no
 * project on 0.3 has.
 */
export const LOWEST_INLINE: RegExp[] = [/@langchain\+openai@0\.6\./];
