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
