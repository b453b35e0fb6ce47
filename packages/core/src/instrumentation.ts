/**
 * What a client call reports to an instrumentation (`@catalogkit/otel` makes OpenTelemetry
 * spans and metrics of it). Nothing reported carries a secret; errors are the ones the call
 * throws (already redacted): record their class, not their text.
 */
export interface CatalogInstrumentation {
  /**
   * A call begins; returns its observer, or undefined to leave it unobserved. Runs in the
   * caller's async context, so a span can be parented under the one active there.
   */
  startCall(operation: string, mutates: boolean): CallObserver | undefined;
}

/** The events of one call, in order: attempts, answers, waits, then `end` once. */
export interface CallObserver {
  /** Attempt `attempt` (1 for the first send) begins. */
  attemptStart(attempt: number): void;
  /**
   * An HTTP answer (each redirect hop and paid resend too): its status and `x-ucp-auth-tier`
   * header (null when absent; server text, so keep only values you know).
   */
  response(status: number, tier: string | null): void;
  /** Attempt `attempt` ended: `error` is what it threw, undefined when it succeeded. */
  attemptEnd(attempt: number, error: unknown): void;
  /** A wait: `retry` before repeating an attempt, `rateLimitPause` while a 429's pause runs. */
  wait(kind: 'retry' | 'rateLimitPause', ms: number): void;
  /** The call ended: `error` is what it throws (undefined on success), after `attempts`. */
  end(error: unknown, attempts: number): void;
}

/**
 * Starts observing one call. Telemetry never changes a call's outcome: the first report that
 * throws (`startCall` included) ends the observing of that call and is told once to `onThrow`;
 * the call goes on as if unobserved.
 */
export function observeCall(
  instrumentation: CatalogInstrumentation,
  operation: string,
  mutates: boolean,
  onThrow: (error: unknown) => void,
): CallObserver | undefined {
  let live: CallObserver | undefined;
  const fail = (error: unknown) => {
    if (live !== undefined) onThrow(error);
    live = undefined;
  };
  const guard =
    <K extends keyof CallObserver>(name: K) =>
    (...args: Parameters<CallObserver[K]>): void => {
      try {
        const report = live?.[name] as ((...a: typeof args) => unknown) | undefined;
        // An `async` method's rejection is a throw too, not an unhandled rejection.
        const result = report?.apply(live, args) as PromiseLike<unknown> | undefined;
        if (typeof result?.then === 'function') result.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
    };
  try {
    live = instrumentation.startCall(operation, mutates);
  } catch (error) {
    onThrow(error);
  }
  if (live === undefined) return undefined;
  return {
    attemptStart: guard('attemptStart'),
    response: guard('response'),
    attemptEnd: guard('attemptEnd'),
    wait: guard('wait'),
    end: guard('end'),
  };
}
