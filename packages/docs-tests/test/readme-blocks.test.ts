import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedFlows, readmes, root, withFlowsFromFiles } from './support/readme-flows.js';

const flows = join(root, 'packages/docs-tests/flows');

describe('README flows are the committed files the docs tests run', () => {
  const found = readmes().flatMap((readme) =>
    embeddedFlows(readFileSync(join(root, readme), 'utf8')).map((flow) => ({ readme, ...flow })),
  );

  it('finds the embedded flows', () => {
    expect(found.length).toBeGreaterThanOrEqual(2);
  });

  for (const { readme, path, block } of found) {
    it(`${readme}: ${path} (after changing a flow: pnpm --filter @catalogkit/docs-tests sync)`, () => {
      expect(block, 'a ```ts block follows the marker').toBeDefined();
      expect(block).toBe(readFileSync(join(root, path), 'utf8'));
    });
  }

  it('every flow file is shown in a README', () => {
    const shown = new Set(found.map((flow) => flow.path));
    const files = readdirSync(flows, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !shown.has(file))).toEqual([]);
  });

  it('reads a marker and its block, and replaces the block with the file', () => {
    const text = ['<!-- docs-flow: a.ts -->', '', '```ts', 'x;', '```', '<!-- docs-flow: b.ts -->'];
    expect(embeddedFlows(text.join('\n'))).toEqual([
      { path: 'a.ts', block: 'x;\n', fences: { open: 2, close: 4 } },
      { path: 'b.ts', block: undefined },
    ]);
    const synced = withFlowsFromFiles(text.join('\n'), () => 'y;\nz;\n');
    expect(embeddedFlows(synced)[0]?.block).toBe('y;\nz;\n');
  });
});
