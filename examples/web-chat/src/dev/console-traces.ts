/**
 * WEBCHAT_TRACE_CONSOLE=1: the catalog client's spans (a span per call, a child per attempt,
 * retries and 429 pauses as events; see packages/otel) printed to the console as they end.
 * A production server exports them with @opentelemetry/sdk-node instead.
 */
import { catalogTelemetry } from '@catalogkit/otel';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** The client option that prints its spans, or nothing when the flag is off. */
export function consoleTraces(env: NodeJS.ProcessEnv = process.env) {
  if (env.WEBCHAT_TRACE_CONSOLE !== '1' && env.WEBCHAT_TRACE_CONSOLE !== 'true') return {};
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
  });
  return { instrumentation: catalogTelemetry({ tracerProvider }).instrumentation };
}
