// Loopback stand-ins of model providers' HTTP APIs, for the adapters' tests.
export { anthropicResultsSeen, startAnthropicStandIn } from './anthropic.js';
export { declarations, googleResultsSeen, startGoogleStandIn } from './google.js';
export { declaredTools, openAiResultsSeen, startOpenAiChatStandIn } from './openai-chat.js';
export { geminiDeclarationProblems, openAiStrictProblems } from './schema-rules.js';
export { type ResultSeen, type ScriptedCall, type ScriptedTurn, turnAt } from './script.js';
export { type RecordedRequest, type RunningStandIn, startStandIn } from './server.js';
