import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EdgeVM } from '@edge-runtime/vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixture, type CoreBuild } from './runtimes/build-core.js';
import { type PreparedScenario, prepareScenario } from './runtimes/prepared-scenario.js';
import {
  expectPortableOutcome,
  type ScenarioConfig,
  type ScenarioOutcome,
} from './runtimes/scenario.js';

// Vercel's edge runtime: a V8 context with Web APIs only (no process, Buffer, require) and
// code generation from strings disabled, like edge workers.

let core: CoreBuild;
let scenario: PreparedScenario | undefined;
let config: ScenarioConfig;
let reference: ScenarioOutcome;

// The hook builds core: allow more than vitest's 10 s default on a busy 2-core CI machine.
beforeAll(async () => {
  scenario = await prepareScenario();
  ({ core, config, reference } = scenario);
}, 90_000);
afterAll(async () => {
  await scenario?.close();
});

/** Loads an IIFE bundle into a fresh edge VM. */
async function edgeVmWith(bundle: string): Promise<EdgeVM> {
  const vm = new EdgeVM();
  vm.evaluate(await readFile(bundle, 'utf8'));
  return vm;
}

describe('core in the edge runtime (@edge-runtime/vm)', () => {
  it('searches websites and the catalog (SSE) against the emulator, like Node', async () => {
    const bundle = join(core.outDir, 'edge.js');
    await bundleFixture(core, { entry: 'global-entry.mjs', outfile: bundle, format: 'iife' });
    const vm = await edgeVmWith(bundle);
    // Serialised inside the VM so only a string crosses between the two realms.
    const json = await vm.evaluate<Promise<string>>(
      `runScenario(${JSON.stringify(config)}).then((outcome) => JSON.stringify(outcome))`,
    );
    expectPortableOutcome(JSON.parse(json) as ScenarioOutcome, 'edge-runtime', reference, config);
  });

  it.each(['process.env', 'Buffer.from("x")', 'require("node:fs")', 'new Function("")'])(
    'lacks what edge workers lack, so code using it fails there (negative control): %s',
    async (expression) => {
      const vm = new EdgeVM();
      expect(() => vm.evaluate(expression)).toThrow(/is not defined|Code generation/);
    },
  );
});
