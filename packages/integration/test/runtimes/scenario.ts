import { pathToFileURL } from 'node:url';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { expect } from 'vitest';

/** What fixtures/scenario.mjs gets: addresses and keys of a live emulator. */
export interface ScenarioConfig {
  apiKey: string;
  invalidKey: string;
  baseUrl: string;
  mcpUrl: string;
}

interface ErrorSummary {
  name?: string;
  code?: string;
  isCatalogError?: boolean;
  status?: number;
  reason?: string;
  issuePaths?: string[];
  message?: string;
}

/** What fixtures/scenario.mjs returns (JSON-safe). */
export interface ScenarioOutcome {
  runtime: string;
  websites: { websites: unknown[] };
  catalog: { tier: string; result: { products: { variants: { url: string }[] }[] } };
  invalidKey: ErrorSummary;
  badRequest: ErrorSummary;
  timeout: ErrorSummary;
}

/**
 * Starts an emulator on loopback that answers MCP as SSE and holds
 * `POST /v1/conversations` for a second, so the scenario's 100 ms timeout fires.
 */
export async function startScenarioEmulator(): Promise<{
  emulator: RunningEmulator;
  config: ScenarioConfig;
}> {
  const emulator = await startEmulator({ port: 0, mcpResponse: 'sse' });
  emulator.faults.set({ routes: ['POST /v1/conversations'], latencyMs: 1_000 });
  const config = {
    apiKey: emulator.keys.valid,
    invalidKey: emulator.keys.invalid,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
  };
  return { emulator, config };
}

/** Runs the scenario bundle in this Node process: the reference other runtimes must match. */
export async function runScenarioInNode(
  bundle: string,
  config: ScenarioConfig,
): Promise<ScenarioOutcome> {
  const module = (await import(/* @vite-ignore */ pathToFileURL(bundle).href)) as {
    runScenario(config: ScenarioConfig): Promise<ScenarioOutcome>;
  };
  // Through JSON, like the outcomes of the other runtimes.
  return JSON.parse(JSON.stringify(await module.runScenario(config))) as ScenarioOutcome;
}

/** The checks every runtime must pass, and the same answers as Node. */
export function expectPortableOutcome(
  outcome: ScenarioOutcome,
  runtime: string,
  reference: ScenarioOutcome,
  config: ScenarioConfig,
): void {
  expect(outcome.runtime).toBe(runtime);
  expect(outcome.websites.websites.length).toBeGreaterThan(0);
  expect(outcome.catalog.tier).toBe('token');
  expect(outcome.catalog.result.products.length).toBeGreaterThan(0);
  expect(outcome.invalidKey).toMatchObject({
    name: 'AuthenticationError',
    isCatalogError: true,
    status: 401,
    reason: 'invalid',
  });
  expect(outcome.badRequest).toMatchObject({
    name: 'RequestValidationError',
    isCatalogError: true,
  });
  expect(outcome.badRequest.issuePaths).toEqual(expect.arrayContaining(['query', 'limit']));
  expect(outcome.timeout).toMatchObject({ name: 'TimeoutError', code: 'timeout' });
  const serialized = JSON.stringify(outcome);
  expect(serialized).not.toContain(config.apiKey);
  expect(serialized).not.toContain(config.invalidKey);
  // Same results, errors and buy links (byte for byte) as Node.
  expect({ ...outcome, runtime: reference.runtime }).toEqual(reference);
}
