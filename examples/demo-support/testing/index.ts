export { type ShoppingAgentSubject, shoppingAgentSuite } from './agent-suite.js';
export { demoCommandSuite } from './demo-suite.js';
export { type ReceivedRequest, startOpenAiStandIn } from './openai-stub.js';
export { SAMPLE_TRANSCRIPT } from './sample-transcript.js';
