import { shoppingAgentSuite } from '@catalogkit/example-shared/testing';
import { runShoppingAgent } from '../src/agent.js';
import { chooseChatModel } from '../src/model.js';

shoppingAgentSuite({
  framework: 'LangChain',
  run: (options) => runShoppingAgent({ ...options, model: chooseChatModel({}) }),
});
