import { describe, expect, it } from 'vitest';
import { type AgentFunction, type Framework, runScenario, SCENARIOS } from '../src/index.js';
import { langChainAgent, openAiAgentsAgent } from './support/agents.js';

const agents: [Framework, AgentFunction<never, never>][] = [
  ['langchain', langChainAgent as AgentFunction<never, never>],
  ['openai-agents', openAiAgentsAgent as AgentFunction<never, never>],
];

for (const [framework, agent] of agents) {
  describe(`every scenario passes with a well-behaved ${framework} agent`, () => {
    for (const scenario of SCENARIOS) {
      it(scenario.id, async () => {
        const result = await runScenario(scenario, agent, { framework });
        expect(result.problems).toEqual([]);
      });
    }
  });
}
