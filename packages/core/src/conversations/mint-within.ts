import { TimeoutError } from '../errors/transport-errors.js';
import { abortable } from './sleep.js';
import type { MintedToken, TokenMinter } from './types.js';

/**
 * Calls a mint function with a signal that aborts after `timeoutMs` or when `lifetime`
 * aborts. The call is also raced against that signal, so a mint function that ignores
 * its signal cannot hang the session.
 */
export async function mintWithin(
  mint: TokenMinter,
  timeoutMs: number,
  lifetime: AbortSignal,
): Promise<MintedToken> {
  const controller = new AbortController();
  const onLifetimeEnd = () => controller.abort(lifetime.reason);
  lifetime.addEventListener('abort', onLifetimeEnd, { once: true });
  const timer = setTimeout(
    () => controller.abort(new TimeoutError(timeoutMs, 'Minting a conversation token')),
    timeoutMs,
  );
  try {
    return await abortable(mint({ signal: controller.signal }), controller.signal);
  } finally {
    clearTimeout(timer);
    lifetime.removeEventListener('abort', onLifetimeEnd);
  }
}
