import { shoppingAgentSuite } from '@catalogkit/example-shared/testing';
import { runShoppingAgent } from '../src/agent.js';
import { chooseModel } from '../src/model.js';

shoppingAgentSuite({
  framework: 'Vercel AI SDK',
  run: (options) => runShoppingAgent({ ...options, model: chooseModel({}) }),
});
