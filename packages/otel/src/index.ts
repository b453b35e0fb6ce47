/*
 * OpenTelemetry for catalogkit: spans and metrics of the client's calls (through core's
 * `instrumentation` option), of payments, store operations and token mints (by wrapping the
 * hooks the application already passes), and GenAI `execute_tool` spans around tool
 * executions, nested under whatever span is active (the AI SDK's, LangChain's).
 *
 * No secret reaches telemetry, by construction: every attribute is a fixed name, a number,
 * an operation or tool name from code, or server text that matches a short allow-list. No
 * message, header, URL with a query, body, key, token or credential is ever recorded.
 */

import {
  type CallObserver,
  CatalogError,
  type CatalogInstrumentation,
  type CatalogStore,
} from '@catalogkit/core';
import type { TokenMinter } from '@catalogkit/core/conversations';
import type { PaymentChallenge, PaymentOptions } from '@catalogkit/core/payment';
import {
  type Attributes,
  type Context,
  type Counter,
  context,
  type Histogram,
  type MeterProvider,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

const NAME = '@catalogkit/otel';

/** Where spans and metrics go. Default: the global providers (`@opentelemetry/sdk-node`). */
export interface CatalogTelemetryOptions {
  tracerProvider?: TracerProvider;
  meterProvider?: MeterProvider;
}

/** An object with an `execute` method, as the AI SDK's and most frameworks' tools are. */
interface ExecutableTool {
  execute?: (input: never, options?: never) => unknown;
}

/** What `catalogTelemetry()` returns: the client's instrumentation, and wrappers. */
export interface CatalogTelemetry {
  /** Pass as the client's `instrumentation` option: a span per call and per attempt. */
  readonly instrumentation: CatalogInstrumentation;
  /** `store` with a span per operation and a count of its errors. Keys and values are never recorded. */
  store<S extends CatalogStore>(store: S): S;
  /** `payment` with a span per payment decision (amount, currency, outcome; never the credential). */
  payment(payment: PaymentOptions): PaymentOptions;
  /** `mint` with a span per token mint (never the token). */
  mint(mint: TokenMinter): TokenMinter;
  /**
   * Runs a tool execution inside an `execute_tool <name>` span (GenAI conventions), child of
   * the active span; the client calls it makes nest under it.
   */
  toolCall<T>(name: string, callId: string | undefined, run: () => T): T;
  /**
   * A copy of a tool set (the AI SDK's `tools` record) whose `execute` runs in
   * {@link toolCall}, named by its key, with the framework's `toolCallId`.
   */
  tools<T extends Record<string, ExecutableTool>>(tools: T): T;
}

/**
 * The operations core's calls are named by, with their method and URL template: a call's
 * attributes never carry the URL it sent (an id in the path, input in the query).
 */
const ROUTES: Readonly<Record<string, readonly [method: string, template: string]>> = {
  'websites.search': ['GET', '/v1/websites/search'],
  'collections.update': ['PATCH', '/v1/collections/{collection_id}'],
  'conversations.create': ['POST', '/v1/conversations'],
  'conversations.mintToken': ['POST', '/v1/conversations/{conversation_id}/tokens'],
  'conversations.sendTurn': ['POST', '/v1/conversations/{conversation_id}/turns'],
  'catalog.search': ['POST', '/mcp'],
  'catalog.lookup': ['POST', '/mcp'],
  'catalog.getProduct': ['POST', '/mcp'],
  'catalog.tools': ['POST', '/mcp'],
};

/** Tiers the service names; any other header value is server text and is dropped. */
const TIERS = new Set(['token', 'anonymous']);

/** An error's class name for `error.type`: catalogkit's own, else the convention's `_OTHER`. */
function errorType(error: unknown): string {
  return CatalogError.is(error) ? error.name : '_OTHER';
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Marks a span failed with the error's class only: messages are never recorded. */
function fail(span: Span, error: unknown): void {
  span.setAttribute('error.type', errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

interface Instruments {
  tracer: Tracer;
  duration: Histogram;
  retries: Counter;
  pauses: Counter;
  unknownOutcomes: Counter;
  payments: Counter;
  paymentAmount: Counter;
  storeErrors: Counter;
}

/** One client call: its span, the span of its current attempt, and what ends them. */
class CallTelemetry implements CallObserver {
  readonly #instruments: Instruments;
  readonly #operation: string;
  readonly #span: Span;
  /** The call span's context: its attempts' parent. */
  readonly #context: Context;
  readonly #started = performance.now();
  #attempt: Span | undefined;
  #status: number | undefined;
  #tier: string | undefined;

  constructor(instruments: Instruments, operation: string, mutates: boolean, span: Span) {
    this.#instruments = instruments;
    this.#operation = operation;
    this.#span = span;
    this.#context = trace.setSpan(context.active(), span);
    span.setAttribute('catalogkit.mutates', mutates);
  }

  attemptStart(attempt: number): void {
    const route = ROUTES[this.#operation];
    const attributes: Attributes = { 'catalogkit.operation': this.#operation };
    if (route) {
      attributes['http.request.method'] = route[0];
      attributes['url.template'] = route[1];
    }
    if (attempt > 1) attributes['http.request.resend_count'] = attempt - 1;
    this.#attempt = this.#instruments.tracer.startSpan(
      route ? `${route[0]} ${route[1]}` : this.#operation,
      { kind: SpanKind.CLIENT, attributes },
      this.#context,
    );
  }

  response(status: number, tier: string | null): void {
    this.#status = status;
    this.#attempt?.setAttribute('http.response.status_code', status);
    const known = tier?.trim().toLowerCase();
    if (known !== undefined && TIERS.has(known)) this.#tier = known;
  }

  attemptEnd(_attempt: number, error: unknown): void {
    const span = this.#attempt;
    this.#attempt = undefined;
    if (error !== undefined) {
      const status = statusOf(error);
      if (status !== undefined) this.#status = status;
      if (status === 429) {
        this.#instruments.pauses.add(1, { 'catalogkit.operation': this.#operation });
        this.#span.addEvent('catalogkit.rate_limited');
      }
      if (span) fail(span, error);
    }
    span?.end();
  }

  wait(kind: 'retry' | 'rateLimitPause', ms: number): void {
    if (kind === 'retry') {
      this.#instruments.retries.add(1, { 'catalogkit.operation': this.#operation });
      this.#span.addEvent('catalogkit.retry_wait', { 'catalogkit.wait_ms': ms });
    } else {
      this.#span.addEvent('catalogkit.rate_limit_pause', { 'catalogkit.wait_ms': ms });
    }
  }

  end(error: unknown, attempts: number): void {
    const span = this.#span;
    const route = ROUTES[this.#operation];
    const metric: Attributes = { 'catalogkit.operation': this.#operation };
    span.setAttribute('catalogkit.attempts', attempts);
    if (route) span.setAttribute('url.template', route[1]);
    if (this.#tier !== undefined) span.setAttribute('catalogkit.tier', this.#tier);
    if (this.#status !== undefined) {
      span.setAttribute('http.response.status_code', this.#status);
      metric['http.response.status_code'] = this.#status;
    }
    const outcomeUnknown = (error as { outcomeUnknown?: unknown } | null)?.outcomeUnknown === true;
    span.setAttribute('catalogkit.outcome_unknown', outcomeUnknown);
    if (error !== undefined) {
      fail(span, error);
      metric['error.type'] = errorType(error);
      if (outcomeUnknown) this.#instruments.unknownOutcomes.add(1, metric);
    }
    this.#instruments.duration.record((performance.now() - this.#started) / 1000, metric);
    span.end();
  }
}

/**
 * Server text becomes an attribute only from a closed list, else `_OTHER`: it can then carry
 * no secret and make no unbounded number of metric series (red team T3, T5). Methods and
 * intents are the Machine Payments Protocol's; currencies are the runtime's ISO 4217 list.
 */
const METHODS = new Set(['tempo', 'stripe', 'lightning', 'card']);
const INTENTS = new Set(['charge', 'session']);
const CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));
const AMOUNT = /^[0-9]{1,15}$/;

function known(values: ReadonlySet<string>, value: string | undefined): string {
  const folded = value?.toLowerCase();
  return folded !== undefined && values.has(folded) ? folded : '_OTHER';
}

/** What a payment span says of the challenges offered: the single one's terms, else their count. */
function paymentAttributes(challenges: readonly PaymentChallenge[]): Attributes {
  const attributes: Attributes = { 'catalogkit.payment.challenges': challenges.length };
  const [only] = challenges;
  if (challenges.length !== 1 || only === undefined) return attributes;
  attributes['catalogkit.payment.method'] = known(METHODS, only.method);
  attributes['catalogkit.payment.intent'] = known(INTENTS, only.intent);
  if (only.currency !== undefined) {
    attributes['catalogkit.payment.currency'] = known(CURRENCIES, only.currency);
  }
  if (only.amount !== undefined && AMOUNT.test(only.amount)) {
    attributes['catalogkit.payment.amount'] = Number(only.amount);
  }
  return attributes;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Runs telemetry work; a throw there (a full exporter queue) is dropped (red team T1). */
function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // Telemetry must never change what the application's call returns.
  }
}

/**
 * Runs `run` in the context of the span `start` makes, and ends the span when it settles;
 * `run`'s result and errors pass through unchanged. A `start` or span that throws leaves
 * `run` unobserved, never failed.
 */
function within<T>(start: () => Span, run: () => T, onError?: (error: unknown) => void): T {
  let span: Span;
  try {
    span = start();
  } catch {
    return run();
  }
  const settle = (error?: unknown) =>
    quietly(() => {
      if (error !== undefined) {
        fail(span, error);
        onError?.(error);
      }
      span.end();
    });
  let result: T;
  try {
    result = context.with(trace.setSpan(context.active(), span), run);
  } catch (error) {
    settle(error);
    throw error;
  }
  if (isThenable(result)) {
    result.then(
      () => settle(),
      (error: unknown) => settle(error ?? new Error('rejected')),
    );
  } else settle();
  return result;
}

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'delete', 'deleteIfEquals', 'lock'] as const;

/**
 * Spans and metrics for catalogkit. Pass `instrumentation` to the client and wrap the
 * store, payment and minter the application uses:
 *
 * @example
 * const telemetry = catalogTelemetry();
 * const client = new CatalogClient({ instrumentation: telemetry.instrumentation, store: telemetry.store(store) });
 */
export function catalogTelemetry(options: CatalogTelemetryOptions = {}): CatalogTelemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(NAME);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(NAME);
  const instruments: Instruments = {
    tracer,
    duration: meter.createHistogram('catalogkit.client.call.duration', {
      unit: 's',
      description: 'Duration of a client call, every attempt and wait included',
    }),
    retries: meter.createCounter('catalogkit.client.retries', {
      description: 'Attempts repeated after a failure',
    }),
    pauses: meter.createCounter('catalogkit.client.rate_limit.pauses', {
      description: 'Answers 429 that paused the instances sharing the store',
    }),
    unknownOutcomes: meter.createCounter('catalogkit.client.outcome_unknown', {
      description: 'Failed changes that may have been applied',
    }),
    payments: meter.createCounter('catalogkit.payments', {
      description: 'Payment decisions, by outcome',
    }),
    paymentAmount: meter.createCounter('catalogkit.payments.amount', {
      description: 'Amounts paid, in the currency smallest unit',
    }),
    storeErrors: meter.createCounter('catalogkit.store.errors', {
      description: 'Store operations that failed',
    }),
  };

  const instrumentation: CatalogInstrumentation = {
    startCall(operation, mutates) {
      // An operation outside core's table (`client.request`) is the app's own text: recorded as
      // `custom`, so it carries nothing the app put in it and makes one series (red team T6).
      const named = Object.hasOwn(ROUTES, operation) ? operation : 'custom';
      const span = tracer.startSpan(named, {
        kind: SpanKind.INTERNAL,
        attributes: { 'catalogkit.operation': named },
      });
      // Observed even when the span is not recording (no provider, or sampled out): the
      // metrics count every call, whatever the trace sampling (red team T2).
      return new CallTelemetry(instruments, named, mutates, span);
    },
  };

  const toolCall = <T>(name: string, callId: string | undefined, run: () => T): T => {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.type': 'function',
    };
    if (callId !== undefined) attributes['gen_ai.tool.call.id'] = callId;
    return within(
      () => tracer.startSpan(`execute_tool ${name}`, { kind: SpanKind.INTERNAL, attributes }),
      run,
    );
  };

  return {
    instrumentation,
    toolCall,

    tools<T extends Record<string, ExecutableTool>>(tools: T): T {
      const traced: Record<string, ExecutableTool> = {};
      for (const [name, tool] of Object.entries(tools)) {
        const { execute } = tool;
        if (typeof execute !== 'function') {
          traced[name] = tool;
          continue;
        }
        const wrapped = (input: never, callOptions?: never) => {
          const id = (callOptions as { toolCallId?: unknown } | undefined)?.toolCallId;
          return toolCall(name, typeof id === 'string' ? id : undefined, () =>
            execute.call(tool, input, callOptions),
          );
        };
        traced[name] = { ...tool, execute: wrapped };
      }
      return traced as T;
    },

    store<S extends CatalogStore>(store: S): S {
      const traced = Object.create(store) as Record<string, unknown>;
      for (const method of STORE_METHODS) {
        const original = store[method] as (...args: unknown[]) => unknown;
        // A missing method stays missing, so the client still names it when it is made.
        if (typeof original !== 'function') continue;
        traced[method] = (...args: unknown[]) =>
          within(
            () =>
              tracer.startSpan(`catalogkit.store ${method}`, {
                kind: SpanKind.CLIENT,
                attributes: { 'catalogkit.store.operation': method },
              }),
            () => original.apply(store, args),
            (error) =>
              instruments.storeErrors.add(1, {
                'catalogkit.store.operation': method,
                'error.type': errorType(error),
              }),
          );
      }
      return traced as S;
    },

    payment(payment: PaymentOptions): PaymentOptions {
      return {
        ...payment,
        pay: (challenges, payContext) => {
          const attributes = paymentAttributes(challenges);
          attributes['catalogkit.operation'] = Object.hasOwn(ROUTES, payContext.operation)
            ? payContext.operation
            : 'custom';
          let span: Span | undefined;
          const record = (outcome: 'paid' | 'declined' | 'failed') =>
            quietly(() => {
              span?.setAttribute('catalogkit.payment.outcome', outcome);
              const metric: Attributes = { 'catalogkit.payment.outcome': outcome };
              const currency = attributes['catalogkit.payment.currency'];
              if (currency !== undefined) metric['catalogkit.payment.currency'] = currency;
              instruments.payments.add(1, metric);
              const amount = attributes['catalogkit.payment.amount'];
              if (outcome === 'paid' && typeof amount === 'number') {
                instruments.paymentAmount.add(amount, metric);
              }
            });
          return within(
            () => {
              span = tracer.startSpan('catalogkit.payment', {
                kind: SpanKind.INTERNAL,
                attributes,
              });
              return span;
            },
            async () => {
              const credential = await payment.pay(challenges, payContext);
              // Only whether a credential came back is recorded, never the credential.
              record(credential === undefined ? 'declined' : 'paid');
              return credential;
            },
            () => record('failed'),
          );
        },
      };
    },

    mint(mint: TokenMinter): TokenMinter {
      return (mintContext) =>
        within(
          () => tracer.startSpan('catalogkit.token.mint', { kind: SpanKind.INTERNAL }),
          () => mint(mintContext),
        );
    },
  };
}
