import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { extractSnippets, type Snippet, snippetModule } from './readme-snippets/extract.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Each README and the package whose dependencies its snippets import (the snippets are
 * compiled inside that package, so `ai`, the providers and our packages resolve as a user's
 * would; our packages through their sources).
 */
const READMES: Array<{ readme: string; host: string }> = [
  { readme: 'README.md', host: 'packages/ai-sdk' },
  { readme: 'packages/ai-sdk/README.md', host: 'packages/ai-sdk' },
  { readme: 'packages/langchain/README.md', host: 'examples/langchain-agent' },
  { readme: 'packages/core/README.md', host: 'packages/integration' },
  { readme: 'packages/emulator/README.md', host: 'packages/integration' },
  { readme: 'packages/mcp/README.md', host: 'packages/mcp' },
  { readme: 'packages/openai-agents/README.md', host: 'packages/openai-agents' },
  { readme: 'packages/redis/README.md', host: 'packages/redis' },
  { readme: 'packages/mppx/README.md', host: 'packages/mppx' },
  { readme: 'packages/otel/README.md', host: 'packages/otel' },
  { readme: 'packages/testing/README.md', host: 'packages/testing' },
];

const TSCONFIG = {
  extends: join(root, 'tsconfig.base.json'),
  compilerOptions: {
    // What a user's project has: `strict`, not the workspace's extra index checks.
    strict: true,
    noUncheckedIndexedAccess: false,
    noEmit: true,
    // Snippets are written for readers: unused names are fine, implicit any is not.
    noUnusedLocals: false,
    types: ['node'],
  },
  include: ['*.ts'],
};

/**
 * Compiles one group of snippets (the same aliases) in a folder under the host's
 * node_modules: the host's dependencies resolve from there, and git and Biome ignore it.
 */
async function typecheckGroup(
  readme: string,
  host: string,
  snippets: Snippet[],
  group: number,
): Promise<string> {
  const folder = join(
    root,
    host,
    'node_modules',
    '.readme-snippets',
    `${readme.replace(/[/.]/g, '_')}-${group}`,
  );
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  try {
    for (const snippet of snippets) {
      writeFileSync(join(folder, `line-${snippet.line}.ts`), snippetModule(snippet, readme));
    }
    const aliases = snippets[0]?.aliases ?? {};
    const paths = Object.fromEntries(
      Object.entries(aliases).flatMap(([name, target]) => [
        [name, [join(root, host, 'node_modules', target)]],
        [`${name}/*`, [join(root, host, 'node_modules', target, '*')]],
      ]),
    );
    const tsconfig = {
      ...TSCONFIG,
      compilerOptions: { ...TSCONFIG.compilerOptions, paths },
    };
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const tsc = join(root, 'node_modules/.bin/tsc');
    // One checker thread: TypeScript 7's default (several, each checking its share against
    // the same declarations) took about 1.8 times the CPU for the same diagnostics.
    const result = await run(tsc, ['-p', folder, '--singleThreaded'], { cwd: folder }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
    );
    // Name the README line instead of the generated file.
    return result.stdout.replace(
      /line-(\d+)\.ts\((\d+),/g,
      (_match, line, inner) => `${readme}:${line} (snippet line ${inner}),`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function typecheck(readme: string, host: string): Promise<string> {
  const snippets = extractSnippets(readFileSync(join(root, readme), 'utf8'));
  const groups = new Map<string, Snippet[]>();
  for (const snippet of snippets.filter((candidate) => candidate.skip === undefined)) {
    const key = JSON.stringify(snippet.aliases);
    groups.set(key, [...(groups.get(key) ?? []), snippet]);
  }
  let output = '';
  let group = 0;
  for (const members of groups.values()) {
    output += await typecheckGroup(readme, host, members, group++);
  }
  return output;
}

describe('the TypeScript snippets of the READMEs compile under strict', () => {
  for (const { readme, host } of READMES) {
    it(readme, { timeout: 300_000 }, async () => {
      expect(await typecheck(readme, host)).toBe('');
    });
  }

  it('finds the snippets and their markers', () => {
    const snippets = extractSnippets(
      [
        'text',
        '<!-- snippet-prelude',
        'declare const model: string;',
        '-->',
        '',
        '```ts',
        'model.length;',
        '```',
        '<!-- snippet-skip: partial -->',
        '```ts',
        'x',
        '```',
      ].join('\n'),
    );
    expect(snippets).toEqual([
      { line: 6, code: 'model.length;', prelude: 'declare const model: string;\n', aliases: {} },
      { line: 10, code: 'x', prelude: '', skip: 'partial', aliases: {} },
    ]);
  });
});
