/**
 * Stops the store from sending commands to a Redis that has stopped answering.
 *
 * A command the store gave up on is not withdrawn: it stays in the client (ioredis keeps it,
 * with its arguments, until an answer comes) and runs whenever Redis reads it, after the
 * caller was told it failed. While Redis is paused or overloaded, every further command
 * would do the same: pile up in the client's memory, and land late. So once a command got
 * no answer within its time limit, the store sends nothing but one small probe (`PING`) at a
 * time; callers wait for it (within their own time limit) and send only once Redis answered
 * something. A caller that ran out of time meanwhile fails with nothing sent.
 * @internal
 */
export class StallGuard {
  readonly #probe: () => Promise<unknown>;
  readonly #probeEveryMs: number;
  #stalled = false;
  #probeSentAt = Number.NEGATIVE_INFINITY;
  /** Resolves when Redis answers again; one per stall. */
  #recovered: Promise<void> = Promise.resolve();
  #recover: () => void = () => undefined;

  /**
   * @param probe Sends one `PING` (bounded by the client or the store's own limit).
   * @param probeEveryMs A probe unanswered for this long is followed by another (a client
   *   may drop a command without ever settling it).
   */
  constructor(probe: () => Promise<unknown>, probeEveryMs: number) {
    this.#probe = probe;
    this.#probeEveryMs = probeEveryMs;
  }

  /** Whether commands are held back because the last one went unanswered. */
  get stalled(): boolean {
    return this.#stalled;
  }

  /** A command got no answer within its time limit. */
  timedOut(): void {
    if (this.#stalled) return;
    this.#stalled = true;
    this.#probeSentAt = Number.NEGATIVE_INFINITY;
    this.#recovered = new Promise((resolve) => {
      this.#recover = resolve;
    });
  }

  /** Redis answered something (a reply or an error reply): it reads commands again. */
  answered(): void {
    if (!this.#stalled) return;
    this.#stalled = false;
    this.#recover();
  }

  /**
   * Resolves `true` at once when not stalled, else once Redis answers a probe; `false`
   * when `withinMs` passes first. Rejects with the signal's reason when it aborts.
   */
  async ready(withinMs: number, signal?: AbortSignal): Promise<boolean> {
    signal?.throwIfAborted();
    if (!this.#stalled) return true;
    this.#sendProbe();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<boolean>((resolve, reject) => {
      timer = setTimeout(() => resolve(false), withinMs);
      onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.#recovered.then(() => true), gaveUp]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  #sendProbe(): void {
    const now = performance.now();
    if (now - this.#probeSentAt < this.#probeEveryMs) return;
    this.#probeSentAt = now;
    this.#probe().then(
      () => this.answered(),
      () => {
        // Refused without an answer (the client is reconnecting): the next caller may probe
        // again at once instead of after `probeEveryMs`.
        if (this.#probeSentAt === now) this.#probeSentAt = Number.NEGATIVE_INFINITY;
      },
    );
  }
}
