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
      /** Record the approval as issued (what the instance that showed it does), not use it. */
      issue?: true;
    };

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
