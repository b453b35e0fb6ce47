/*
 * Three deliberately broken agents (test/fixtures/mistakes/), each with one mistake real agents
 * make. The report must fail the scenarios the mistake touches and say what went wrong; and the
 * same agent with that one mistake fixed (each fixture's `fixed` export) must pass every
 * scenario, so the kit catches the mistake itself, not something else about the agent.
 * The agents run in this process, as the CLI's child runs them (the module's default export
 * and its `framework`, 'ai-sdk' by default); the CLI's process, its table and exit code 1 are
 * proven once in cli.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  type AgentFunction,
  type Framework,
  formatReport,
  runScenarios,
  SCENARIOS,
} from '../src/index.js';
import * as noApproval from './fixtures/mistakes/no-approval.js';
import * as rawToolOutput from './fixtures/mistakes/raw-tool-output.js';
import * as retryFailures from './fixtures/mistakes/retry-failures.js';
import { reportRows } from './support/cli.js';

interface Mistake {
  module: { default: unknown; framework?: unknown };
  framework: Framework;
  fixed: AgentFunction<never, never>;
  /** The scenarios it fails, and what the report must say for each. */
  fails: Record<string, RegExp>;
}

const UNVERIFIED_LINK =
  /^"…?https:\/\/\S+"( \(a link run into \d+ characters of other text\))? is not a buy link the catalog gave; /;

const MISTAKES: Record<string, Mistake> = {
  'tells the model to retry failures': {
    module: retryFailures,
    framework: 'ai-sdk',
    fixed: retryFailures.fixed as AgentFunction<never, never>,
    // Every scenario checks what the model was told, so every one names the sentence.
    fails: Object.fromEntries(
      SCENARIOS.map((scenario) => [
        scenario.id,
        /^the instructions tell the model to retry failures: "If a tool call fails, try it again until it works\."$/,
      ]),
    ),
  },
  'pastes raw tool output into the answer': {
    module: rawToolOutput,
    framework: 'langchain',
    fixed: rawToolOutput.fixed as AgentFunction<never, never>,
    // Every scenario whose answer has catalog results in it (no results: nothing pasted).
    fails: {
      'shopping-run': UNVERIFIED_LINK,
      'rate-limited': UNVERIFIED_LINK,
      'dropped-connection': UNVERIFIED_LINK,
      'key-echoed': UNVERIFIED_LINK,
      'link-copied-wrong': UNVERIFIED_LINK,
      'product-details': UNVERIFIED_LINK,
      'lookup-by-url': UNVERIFIED_LINK,
      // The lookup's JSON pasted: the page the shopper gave, run into the text after it.
      'product-not-found':
        /^"https:\/\/shop\.example\/products\/discontinued-trail-runner\S* is not a buy link the catalog gave/,
    },
  },
  'builds tools without approval': {
    module: noApproval,
    framework: 'openai-agents',
    fixed: noApproval.fixed as AgentFunction<never, never>,
    fails: {
      'update-outcome-unknown':
        /^update_collection reached the service 1 time but the shopper approved 0: a change ran without approval/,
      'change-denied':
        /^update_collection reached the service 1 time but the shopper approved 0: a change ran without approval.*the agent never asked the shopper/,
    },
  },
};

describe.each(Object.entries(MISTAKES))('a broken agent that %s', (_, mistake) => {
  it('is reported: the failing scenarios and what went wrong', {
    timeout: 120_000,
  }, async () => {
    const framework = (mistake.module.framework ?? 'ai-sdk') as Framework;
    expect(framework).toBe(mistake.framework);
    const results = await runScenarios(mistake.module.default as AgentFunction<never, never>, {
      framework,
    });
    const stdout = formatReport(results);
    const rows = reportRows(stdout);
    expect(rows.map((row) => row.id)).toEqual(SCENARIOS.map((scenario) => scenario.id));
    for (const row of rows) {
      const expected = mistake.fails[row.id];
      expect([row.id, row.result]).toEqual([row.id, expected ? 'FAIL' : 'pass']);
      if (expected) expect(row.problems).toMatch(expected);
    }
    const failed = Object.keys(mistake.fails).length;
    expect(stdout).toContain(
      `${SCENARIOS.length - failed} of ${SCENARIOS.length} scenarios passed`,
    );
  });

  it('passes every scenario with that one mistake fixed', { timeout: 120_000 }, async () => {
    const results = await runScenarios(mistake.fixed, { framework: mistake.framework });
    expect(results.map((result) => [result.id, result.problems])).toEqual(
      SCENARIOS.map((scenario) => [scenario.id, []]),
    );
  });
});
