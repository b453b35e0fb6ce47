import { describe, expect, it } from 'vitest';
import { runScenario, SCENARIOS } from '../src/index.js';
import { aiSdkAgent, aiSdkReferenceAgent } from './support/agents.js';

const agents = [
  ['the tools given (buy links inline)', aiSdkAgent],
  ['its own tools with buy link references', aiSdkReferenceAgent],
] as const;

for (const [tools, agent] of agents) {
  describe(`every scenario passes with a well-behaved AI SDK agent: ${tools}`, () => {
    for (const scenario of SCENARIOS) {
      it(scenario.id, async () => {
        const result = await runScenario(scenario, agent);
        expect(result.problems).toEqual([]);
        expect(result.passed).toBe(true);
      });
    }
  });
}
