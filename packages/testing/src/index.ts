/*
 * The public surface of @catalogkit/testing: provider stand-ins, the catalog service of a
 * test (the emulator behind a recording proxy), scenarios, assertions usable from any test
 * runner, and the agent check the CLI runs.
 */
export {
  type ApprovalRecord,
  assertChangesApproved,
  assertNoChangeAppliedTwice,
} from './assertions/changes.js';
export {
  assertRequestsPerAnswer,
  assertTokensMintedPerSession,
  type RequestsPerAnswerOptions,
} from './assertions/counts.js';
export { CatalogAssertionError } from './assertions/error.js';
export { assertBuyLinksVerified, type BuyLinkAssertionOptions } from './assertions/links.js';
export { assertNotToldToRetry, type NotToldToRetryOptions } from './assertions/retry.js';
export { assertKeyNotShown, type SeenByModelAndShopper } from './assertions/secrets.js';
export {
  assertTrajectory,
  type ToolCallRecord,
  type TrajectoryOptions,
  toolCallsOf,
} from './assertions/trajectory.js';
export {
  AgentCheckError,
  type CheckAgentOptions,
  checkAgent,
  runScenarios,
} from './run/check-agent.js';
export { FRAMEWORKS } from './run/frameworks.js';
export { importFrom, type ModuleLoader } from './run/load.js';
export {
  formatJsonReport,
  formatJUnitReport,
  formatReport,
  type ReporterName,
} from './run/report.js';
export { type RunScenarioOptions, runScenario } from './run/run-scenario.js';
export {
  changeDenied,
  droppedConnection,
  keyEchoed,
  linkCopiedWrong,
  paymentChallenge,
  rateLimited,
  SCENARIOS,
  shoppingRun,
  updateOutcomeUnknown,
} from './scenarios/catalog.js';
export { lookupByUrl, productDetails, productNotFound } from './scenarios/lookup.js';
export { MANGLES, type Mangle, type MangleContext } from './scenarios/mangles.js';
export {
  answerWithOffers,
  lastResult,
  type OfferSeen,
  offersIn,
  resultsOf,
} from './scenarios/offers.js';
export type {
  AgentAnswer,
  AgentContext,
  AgentFunction,
  ApprovalDecision,
  ApprovalRequest,
  Approve,
  Framework,
  Scenario,
  ScenarioResult,
  ScenarioRun,
} from './scenarios/types.js';
export {
  type BuyLinkSource,
  type CatalogService,
  type CatalogServiceOptions,
  type ServiceClientOptions,
  startCatalogService,
} from './service/catalog-service.js';
export { type CollectionsSnapshot, snapshotCollections } from './service/collections.js';
export type { ServiceExchange } from './service/proxy.js';
export {
  type ArgumentStyle,
  anthropicResultsSeen,
  anthropicToolProblems,
  type CallSeen,
  type DeclaredTool,
  declarations,
  declaredTools,
  geminiDeclarationProblems,
  googleResultsSeen,
  type ModelScript,
  type ModelView,
  openAiResultsSeen,
  openAiStrictProblems,
  type RecordedRequest,
  type ResultSeen,
  type RunningStandIn,
  type ScriptedCall,
  type ScriptedTurn,
  type SseEvent,
  type StandInReply,
  type StandInScriptOptions,
  startAnthropicStandIn,
  startGoogleStandIn,
  startOpenAiCompatibleStandIn,
  startOpenAiStandIn,
  turnAt,
  writeArguments,
} from './stand-ins/index.js';
