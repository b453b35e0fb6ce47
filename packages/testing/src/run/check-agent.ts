import { CatalogAssertionError } from '../assertions/error.js';
import { allowedEntries } from '../assertions/links.js';
import { SCENARIOS } from '../scenarios/catalog.js';
import type { AgentFunction, Scenario, ScenarioResult } from '../scenarios/types.js';
import { formatReport } from './report.js';
import { describeError, type RunScenarioOptions, runScenario } from './run-scenario.js';

/** Options of {@link runScenarios} and {@link checkAgent}. */
export interface CheckAgentOptions extends RunScenarioOptions {
  /** The scenarios to run (default all of {@link SCENARIOS}). */
  scenarios?: readonly Scenario[];
}

/** Thrown by {@link checkAgent} when a scenario fails; the message is the report table. */
export class AgentCheckError extends CatalogAssertionError {
  /** Every scenario's result, passed or not. */
  readonly results: readonly ScenarioResult[];

  constructor(results: readonly ScenarioResult[]) {
    super(
      'checkAgent',
      results
        .filter((result) => !result.passed)
        .map((result) => `${result.id}: ${result.problems.join('; ')}`),
    );
    this.message = `checkAgent: scenarios failed\n${formatReport(results)}`;
    this.results = results;
  }
}

/** Runs the scenarios one after the other and returns every result (never throws for a failure). */
export async function runScenarios<Model = unknown, Tools = unknown>(
  agent: AgentFunction<Model, Tools>,
  options: CheckAgentOptions = {},
): Promise<ScenarioResult[]> {
  // A wrong option is the caller's mistake, not a scenario's failure: thrown before any runs.
  allowedEntries(options.allowedLinks ?? []);
  const results: ScenarioResult[] = [];
  for (const scenario of options.scenarios ?? SCENARIOS) {
    // One scenario that cannot run (its service, its model) never stops the others.
    try {
      results.push(await runScenario(scenario, agent, options));
    } catch (error) {
      results.push({
        id: scenario.id,
        title: scenario.title,
        passed: false,
        problems: [`the scenario could not run: ${describeError(error)}`],
        durationMs: 0,
      });
    }
  }
  return results;
}

/**
 * Runs every scenario against your agent and throws an {@link AgentCheckError} (a plain
 * `Error`, the report table as its message) when any fails; returns the results otherwise.
 *
 * @example
 * import { checkAgent } from '@catalogkit/testing';
 * import { test } from 'vitest';
 * import agent from './my-agent.js';
 *
 * test('my agent passes the catalogkit scenarios', () => checkAgent(agent), 120_000);
 */
export async function checkAgent<Model = unknown, Tools = unknown>(
  agent: AgentFunction<Model, Tools>,
  options?: CheckAgentOptions,
): Promise<ScenarioResult[]> {
  const results = await runScenarios(agent, options);
  if (results.some((result) => !result.passed)) throw new AgentCheckError(results);
  return results;
}
