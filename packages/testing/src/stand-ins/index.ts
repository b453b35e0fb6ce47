// Loopback stand-ins of model providers' HTTP APIs.
export { anthropicResultsSeen, startAnthropicStandIn } from './anthropic.js';
export { writeArguments } from './arguments.js';
export { declarations, googleResultsSeen, startGoogleStandIn } from './google.js';
export { startOpenAiCompatibleStandIn, startOpenAiStandIn } from './openai.js';
export { declaredTools, openAiResultsSeen } from './openai-chat.js';
export {
  anthropicToolProblems,
  geminiDeclarationProblems,
  openAiStrictProblems,
} from './schema-rules.js';
export type {
  ArgumentStyle,
  CallSeen,
  DeclaredTool,
  ModelScript,
  ModelView,
  ResultSeen,
  ScriptedCall,
  ScriptedTurn,
  StandInScriptOptions,
} from './script.js';
export { turnAt } from './script.js';
export type { RecordedRequest, RunningStandIn, SseEvent, StandInReply } from './server.js';
