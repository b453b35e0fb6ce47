/** Runs at most one task at a time; callers arriving meanwhile share its promise. */
export class SingleFlight<T> {
  #inFlight: Promise<T> | undefined;

  /** Whether a task is running. */
  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  /** Joins the running task, or starts `task` when none is running. */
  run(task: () => Promise<T>): Promise<T> {
    if (this.#inFlight) return this.#inFlight;
    const flight = task().finally(() => {
      this.#inFlight = undefined;
    });
    this.#inFlight = flight;
    return flight;
  }
}
