import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

// Spans nest through the active context, as under @opentelemetry/sdk-node.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** The SDK's in-memory exporters behind a tracer and a meter provider. */
export function inMemoryOtel() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spans)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    finished: (): ReadableSpan[] => spans.getFinishedSpans(),
    /** Every metric point exported so far, by metric name. */
    async metrics(): Promise<Map<string, { attributes: object; value: unknown }[]>> {
      await reader.forceFlush();
      const byName = new Map<string, { attributes: object; value: unknown }[]>();
      for (const resource of metricExporter.getMetrics()) {
        for (const scope of resource.scopeMetrics) {
          for (const metric of scope.metrics) {
            const points = metric.dataPoints.map((point) => ({
              attributes: point.attributes,
              value: point.value,
            }));
            byName.set(metric.descriptor.name, points);
          }
        }
      }
      return byName;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** A span's children among `spans`. */
export function childrenOf(spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}
