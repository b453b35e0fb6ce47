// What the example agents' demo code uses; everything else here is internal to the demo.
export { type ExampleRun, runExampleCli } from './cli/run-cli.js';
export type { AgentEvent, ModelDescription } from './printing/events.js';
export {
  type DemoRunOptions,
  type DemoRunResult,
  finishRunLog,
  loggedApproval,
  startRunLog,
} from './printing/run-log.js';
export { planNextStep } from './shopper/plan.js';
export {
  type ObservationOutcome,
  observationText,
  type PlannedStep,
  type ShopperTranscript,
  type ToolObservation,
} from './shopper/transcript.js';
