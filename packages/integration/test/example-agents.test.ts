import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

/** The example agents a user copies: every `examples/<name>/src/agent.ts`, one file each. */
const AGENTS = readdirSync(repo('examples'))
  .map((name) => `examples/${name}`)
  .filter((folder) => existsSync(repo(`${folder}/src/agent.ts`)))
  .sort();
const MAX_LINES = 99;

/** What a module imports: package names (`@scope/name`, `name`; subpaths dropped) and relative paths. */
function importedPackages(source: string): string[] {
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map(
    (match) => match[1] ?? '',
  );
  return specifiers.map((specifier) => {
    if (specifier.startsWith('.')) return specifier;
    const parts = specifier.split('/');
    return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
  });
}

/** What keeps a file from being copied out on its own, or from being short. */
function copyProblems(source: string, dependencies: readonly string[]): string[] {
  const problems: string[] = [];
  const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`${lines} lines (at most ${MAX_LINES})`);
  for (const name of importedPackages(source)) {
    if (name.startsWith('.')) problems.push(`imports a file of the example (${name})`);
    else if (!dependencies.includes(name)) problems.push(`imports ${name}, not a dependency`);
  }
  return problems;
}

describe('the example agents are one copyable file under 100 lines', () => {
  it('finds a long file and an import a copy would lose (the check can fail)', () => {
    const long = `import { x } from './helpers.js';\nimport { y } from '@scope/pkg/sub';\n${'\n'.repeat(100)}`;
    expect(copyProblems(long, ['@scope/pkg'])).toEqual([
      '102 lines (at most 99)',
      'imports a file of the example (./helpers.js)',
    ]);
    expect(copyProblems("import { z } from 'zod/v4';\n", [])).toEqual([
      'imports zod, not a dependency',
    ]);
  });

  it('finds the agents of the AI SDK and LangChain examples at least', () => {
    expect(AGENTS).toEqual(
      expect.arrayContaining(['examples/ai-sdk-agent', 'examples/langchain-agent']),
    );
  });

  it.each(AGENTS)('%s/src/agent.ts', (folder) => {
    const source = readFileSync(repo(`${folder}/src/agent.ts`), 'utf8');
    const manifest = JSON.parse(readFileSync(repo(`${folder}/package.json`), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(importedPackages(source).length).toBeGreaterThan(0);
    expect(copyProblems(source, Object.keys(manifest.dependencies ?? {}))).toEqual([]);
  });
});
