/**
 * What a client call reports to an instrumentation (`@catalogkit/otel` turns it into
 * OpenTelemetry spans and metrics). Core stays free of any telemetry library: with the
 * `instrumentation` option unset, a call checks one `undefined` and allocates nothing more.
 *
 * Nothing reported carries a secret: the operation name, the attempt number, HTTP statuses,
 * the auth tier header, wait lengths and the error objects the call throws anyway (whose
 * messages are already redacted; an instrumentation should record their class, not text).
 */
export interface CatalogInstrumentation {
  /**
   * A call begins (before its first attempt). Returns the observer of this call, or
   * undefined to leave it unobserved. Runs in the caller's async context, so an
   * instrumentation can parent the call under the span active there.
   */
  startCall(operation: string, mutates: boolean): CallObserver | undefined;
}

/** The events of one call, in order: attempts, answers, waits, then `end` once. */
export interface CallObserver {
  /** Attempt `attempt` (1 for the first send) begins. */
  attemptStart(attempt: number): void;
  /**
   * An HTTP answer arrived for the current attempt (each redirect hop and a paid resend
   * too): its status and its `x-ucp-auth-tier` header (null when absent; server text, so an
   * instrumentation keeps only values it knows).
   */
  response(status: number, tier: string | null): void;
  /** Attempt `attempt` ended: `error` is what it threw, undefined when it succeeded. */
  attemptEnd(attempt: number, error: unknown): void;
  /**
   * A wait inside the call: `retry` before repeating a failed attempt, `rateLimitPause`
   * before sending while a 429's `Retry-After` (shared through the store) runs out.
   */
  wait(kind: 'retry' | 'rateLimitPause', ms: number): void;
  /**
   * The call ended after `attempts` attempts: `error` is what it throws (its
   * `outcomeUnknown` set for a change that may have been applied), undefined on success.
   */
  end(error: unknown, attempts: number): void;
}

/**
 * Telemetry must never change a call's outcome: every report goes through this guard. The
 * first report that throws (a full exporter queue, a buggy span processor) ends the observing
 * of that call, is told once to `onThrow`, and the call goes on as if unobserved. Made only
 * when the client has an instrumentation.
 */
function guarded(inner: CallObserver, onThrow: (error: unknown) => void): CallObserver {
  let live: CallObserver | undefined = inner;
  const guard =
    <A extends unknown[]>(report: (observer: CallObserver, ...args: A) => void) =>
    (...args: A): void => {
      if (live === undefined) return;
      try {
        report(live, ...args);
      } catch (error) {
        live = undefined;
        onThrow(error);
      }
    };
  return {
    attemptStart: guard((o, attempt: number) => o.attemptStart(attempt)),
    response: guard((o, status: number, tier: string | null) => o.response(status, tier)),
    attemptEnd: guard((o, attempt: number, error: unknown) => o.attemptEnd(attempt, error)),
    wait: guard((o, kind: 'retry' | 'rateLimitPause', ms: number) => o.wait(kind, ms)),
    end: guard((o, error: unknown, attempts: number) => o.end(error, attempts)),
  };
}

/**
 * Starts observing one call through `instrumentation`, guarded (see `guarded`): a
 * `startCall` that throws leaves the call unobserved, never failed.
 */
export function observeCall(
  instrumentation: CatalogInstrumentation,
  operation: string,
  mutates: boolean,
  onThrow: (error: unknown) => void,
): CallObserver | undefined {
  try {
    const inner = instrumentation.startCall(operation, mutates);
    return inner === undefined ? undefined : guarded(inner, onThrow);
  } catch (error) {
    onThrow(error);
    return undefined;
  }
}
