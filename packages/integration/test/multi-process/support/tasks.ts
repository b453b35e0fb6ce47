/** What the suite asks an instance to do (see ../workers/instance.ts). */
export type InstanceTask =
  | {
      kind: 'update';
      /** REST base of the service (the fault proxy's). */
      baseUrl: string;
      /** The model's `update_collection` input. */
      input: Record<string, unknown>;
      /** The fault the proxy injects on this call's PATCH (see fault-proxy.ts). */
      fault?: FaultKind;
      timeoutMs: number;
      /** Another tenant's API key (default the instance's). */
      apiKey?: string;
      /**
       * The claim's write is reported failed at once but reaches Redis 50 ms later, as a
       * command a client gave up on still runs when Redis reads it.
       */
      lateClaim?: boolean;
    }
  | {
      kind: 'tokens';
      baseUrl: string;
      /** Each session's token is asked for at once. */
      sessionIds: string[];
      refreshMarginMs?: number;
    }
  | { kind: 'search'; baseUrl: string; query: string; timeoutMs: number; maxRetries?: number }
  | {
      kind: 'approval';
      sealed: string;
      binding: { toolCallId: string; session: string; chatId: string };
    }
  /** Records that an approval was sealed (the instance that sealed it does). */
  | { kind: 'issueApproval'; nonce: string; ttlMs: number }
  /** An operator ends the rate-limit pause of the instance's key at this service. */
  | { kind: 'clearPause'; baseUrl: string };

/** Faults on a collection update, every one after the service applied it. */
export type FaultKind = 'drop-after' | '500-after' | 'truncate' | 'late-answer' | 'slow-apply';

/** An error as an instance reports it (classes do not cross processes). */
export interface TaskError {
  name: string;
  code: string | undefined;
  message: string;
  outcomeUnknown: boolean;
  /** StoreUnavailableError's `store`. */
  store?: string;
}

/** What an instance answers for one task; times are wall-clock ms (one machine, one clock). */
export type InstanceResult = { startedAt: number; endedAt: number; pid: number } & (
  | { ok: true; value: unknown }
  | { ok: false; error: TaskError }
);

/** One session's outcome in a `tokens` task. */
export type SessionTokenResult =
  | { ok: true; sessionId: string; token: string; handedOutAt: number }
  | { ok: false; sessionId: string; error: TaskError };
