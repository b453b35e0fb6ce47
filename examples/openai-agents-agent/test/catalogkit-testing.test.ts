// The agent tested with @catalogkit/testing as you would test yours: the kit's scenarios (a 429,
// a 402, a dropped connection, an update repeated after its outcome was lost, a key echoed by the
// service, buy links copied wrong) run offline through the agent's own code and packages.
import { checkAgent, SCENARIOS } from '@catalogkit/testing';
import { expect, test } from 'vitest';
import agent, { framework } from '../src/agent.js';

test('the agent passes every catalogkit scenario', async () => {
  const results = await checkAgent(agent, { framework }); // throws the report if one fails
  expect(results.map((result) => [result.id, result.passed])).toEqual(
    SCENARIOS.map((scenario) => [scenario.id, true]),
  );
}, 120_000);
