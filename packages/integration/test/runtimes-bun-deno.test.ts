import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bundleFixture, type CoreBuild } from './runtimes/build-core.js';
import { type PreparedScenario, prepareScenario } from './runtimes/prepared-scenario.js';
import { findRuntimeBinary, runRuntime, skipReason } from './runtimes/runtime-binaries.js';
import {
  expectPortableOutcome,
  type ScenarioConfig,
  type ScenarioOutcome,
} from './runtimes/scenario.js';

// Bun and Deno come from npm (the `bun` and `deno` devDependencies ship their binaries).
// Both also implement Node APIs, so these runs prove that core works there; the static
// check and the edge runtime are what fail if core reads a Node API.

const bun = findRuntimeBinary('bun');
const deno = findRuntimeBinary('deno');

let core: CoreBuild;
let scenario: PreparedScenario | undefined;
let config: ScenarioConfig;
let reference: ScenarioOutcome;
let cli: string;

// The hook builds core: allow more than vitest's 10 s default on a busy 2-core CI machine.
beforeAll(async () => {
  scenario = await prepareScenario();
  ({ core, config, reference } = scenario);
  cli = join(core.outDir, 'run-cli.mjs');
  await bundleFixture(core, { entry: 'run-cli.mjs', outfile: cli, format: 'esm' });
}, 90_000);
afterAll(async () => {
  await scenario?.close();
});

describe('core in other runtimes (built bundle, live emulator)', () => {
  const bunMissing = skipReason(bun.missing);
  it.skipIf(bunMissing)(
    `Bun${bunMissing ? ` (skipped: ${bunMissing})` : ''}: website and catalog (SSE) search, like Node`,
    async () => {
      const stdout = await runRuntime(bun.path!, [cli, JSON.stringify(config)]);
      expectPortableOutcome(JSON.parse(stdout) as ScenarioOutcome, 'bun', reference, config);
    },
  );

  const denoMissing = skipReason(deno.missing);
  const denoTitle = (what: string) =>
    `Deno${denoMissing ? ` (skipped: ${denoMissing})` : ''}: ${what}`;
  /** Deno's arguments: network to the emulator only, env only as listed. */
  function denoArgs(allowEnv: string | undefined): string[] {
    const { host } = new URL(config.baseUrl);
    const env = allowEnv === undefined ? [] : [`--allow-env=${allowEnv}`];
    return ['run', '--no-prompt', '--no-config', `--allow-net=${host}`, ...env, cli];
  }

  it.skipIf(denoMissing)(
    denoTitle('the same, allowed the emulator and only the three CATALOG_* variables'),
    async () => {
      const allowEnv = 'CATALOG_API_KEY,CATALOG_BASE_URL,CATALOG_MCP_URL';
      const stdout = await runRuntime(deno.path!, [...denoArgs(allowEnv), JSON.stringify(config)]);
      expectPortableOutcome(JSON.parse(stdout) as ScenarioOutcome, 'deno', reference, config);
    },
  );

  // Without --allow-env Deno throws NotCapable on any env read: a client built without
  // mcpUrl looks up CATALOG_MCP_URL, which must count as unset, not crash.
  it.skipIf(denoMissing)(
    denoTitle('the same without env permission, when a client looks for a CATALOG_* fallback'),
    async () => {
      const stdout = await runRuntime(deno.path!, [...denoArgs(undefined), JSON.stringify(config)]);
      expectPortableOutcome(JSON.parse(stdout) as ScenarioOutcome, 'deno', reference, config);
    },
  );
});
