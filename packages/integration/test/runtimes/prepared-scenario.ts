import { join } from 'node:path';
import type { RunningEmulator } from '@catalogkit/emulator';
import { buildCore, bundleFixture, type CoreBuild } from './build-core.js';
import {
  runScenarioInNode,
  type ScenarioConfig,
  type ScenarioOutcome,
  startScenarioEmulator,
} from './scenario.js';

/** What every runtime test starts from: a fresh core build, an emulator and Node's outcome. */
export interface PreparedScenario {
  core: CoreBuild;
  emulator: RunningEmulator;
  config: ScenarioConfig;
  /** The scenario's outcome in Node: what every other runtime must match. */
  reference: ScenarioOutcome;
  /** Stops the emulator and removes the build. */
  close(): Promise<void>;
}

/**
 * Builds core, starts the scenario's emulator, bundles the scenario and runs it in Node as
 * the reference. Each test file calls it once in `beforeAll` (vitest isolates files).
 */
export async function prepareScenario(): Promise<PreparedScenario> {
  const core = await buildCore();
  const { emulator, config } = await startScenarioEmulator();
  const esm = join(core.outDir, 'scenario.mjs');
  await bundleFixture(core, { entry: 'scenario.mjs', outfile: esm, format: 'esm' });
  const reference = await runScenarioInNode(esm, config);
  return {
    core,
    emulator,
    config,
    reference,
    close: async () => {
      await emulator.close();
      await core.remove();
    },
  };
}
