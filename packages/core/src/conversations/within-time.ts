import { TimeoutError } from '../errors/transport-errors.js';
import { abortable } from './sleep.js';

/** Limits of {@link runWithinTime}. */
export interface TimeLimit {
  timeoutMs: number;
  /** Ends the task early (the manager or session was closed). */
  lifetime: AbortSignal;
  /** What the task does, for the TimeoutError message, e.g. `Minting a conversation token`. */
  what: string;
}

/**
 * Runs `task` with a signal that aborts after `timeoutMs` or when `lifetime` aborts. The
 * task is also raced against that signal, so one that ignores its signal still ends on
 * time: work done under a session's cross-instance lock never outlives the lock's lease.
 */
export async function runWithinTime<T>(
  task: (signal: AbortSignal) => Promise<T>,
  limit: TimeLimit,
): Promise<T> {
  const { timeoutMs, lifetime, what } = limit;
  lifetime.throwIfAborted();
  const controller = new AbortController();
  const onLifetimeEnd = () => controller.abort(lifetime.reason);
  lifetime.addEventListener('abort', onLifetimeEnd, { once: true });
  const timer = setTimeout(() => controller.abort(new TimeoutError(timeoutMs, what)), timeoutMs);
  try {
    return await abortable(task(controller.signal), controller.signal);
  } finally {
    clearTimeout(timer);
    lifetime.removeEventListener('abort', onLifetimeEnd);
  }
}
