import type { Context } from 'hono';
import { bearerCredential } from '../bearer.js';
import type { EmulatorContext } from '../context.js';

/** What the payment check decided for one MCP request. */
export type McpPayment =
  | { kind: 'free' }
  | { kind: 'paid'; receipt: string }
  | { kind: 'refused'; response: Response };

/** The `paymentRequired` key in `x-api-key` or as a bearer token. */
function carriesPaymentKey(emulator: EmulatorContext, c: Context): boolean {
  const key = c.req.header('x-api-key') ?? bearerCredential(c.req.header('authorization'));
  return key === emulator.keys.paymentRequired;
}

/**
 * Tool calls with the `paymentRequired` key cost a payment, like its REST calls: without
 * a good credential the answer is a 402 with the contract's `{ detail }` body and fresh
 * challenges. Protocol messages (initialize, tools/list) stay free.
 */
export async function payForToolCall(
  emulator: EmulatorContext,
  c: Context,
  isToolCall: boolean,
  tierHeader: string,
): Promise<McpPayment> {
  if (!isToolCall || !carriesPaymentKey(emulator, c)) return { kind: 'free' };
  const now = emulator.now();
  const paid = await emulator.payments.redeem(
    c.req.header('authorization'),
    now,
    'POST /mcp tools/call',
  );
  if (paid.ok) return { kind: 'paid', receipt: paid.receipt };
  const headers = {
    'WWW-Authenticate': await emulator.payments.challengeHeader(now),
    [tierHeader]: 'anonymous',
  };
  return {
    kind: 'refused',
    response: Response.json({ detail: paid.detail }, { status: 402, headers }),
  };
}
