import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { engineViolations } from '../src/node-support.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A package folder with node_modules laid out as npm does (hoisted). */
function project(deps: Record<string, { engines?: string; deps?: Record<string, string> }>) {
  const root = mkdtempSync(join(tmpdir(), 'engines-'));
  made.push(root);
  const write = (dir: string, manifest: object) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  };
  write(root, { name: 'app', version: '1.0.0', dependencies: { direct: '^1.0.0' } });
  for (const [name, { engines, deps: dependencies }] of Object.entries(deps)) {
    write(join(root, 'node_modules', name), {
      name,
      version: '1.0.0',
      ...(engines ? { engines: { node: engines } } : {}),
      ...(dependencies ? { dependencies } : {}),
    });
  }
  return root;
}

it('reports a transitive dependency that needs a newer Node, with the chain', () => {
  const root = project({
    direct: { engines: '>=18', deps: { deep: '^1.0.0' } },
    deep: { engines: '>=22.12' },
  });
  expect(engineViolations(root, '20.19.0')).toEqual([
    { path: 'deep@1.0.0 <- direct@1.0.0 <- app@1.0.0', engines: '>=22.12' },
  ]);
});

it('accepts dependencies without engines or with ranges that admit the Node version', () => {
  const root = project({ direct: { deps: { deep: '^1.0.0' } }, deep: { engines: '>=20' } });
  expect(engineViolations(root, '20.19.0')).toEqual([]);
});

it('reports a required dependency that is not installed', () => {
  const root = project({ direct: { deps: { gone: '^1.0.0' } } });
  expect(engineViolations(root, '20.19.0')).toEqual([
    { path: 'gone (not installed) <- direct@1.0.0', engines: '?' },
  ]);
});
