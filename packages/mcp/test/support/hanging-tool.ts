import { defineCatalogTool } from '@catalogkit/core';
import { z } from 'zod/v4';

/**
 * Tool calls that run until their signal aborts, as a slow service or a long custom tool
 * would: the server of a request is closed exactly when its call's signal aborts, so
 * `running` counts the servers a handler left open with work in them.
 */
export interface HangingCalls {
  /** Tags of the calls started so far. */
  readonly started: Set<string>;
  /** Calls started and not yet aborted. */
  readonly running: number;
  /** Resolves once the call tagged `tag` is running. */
  waitForStart(tag: string): Promise<void>;
}

export function hangingTool() {
  const started = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  let running = 0;
  const calls: HangingCalls = {
    started,
    get running() {
      return running;
    },
    waitForStart: (tag) =>
      started.has(tag)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.set(tag, [...(waiting.get(tag) ?? []), resolve])),
  };
  const tool = defineCatalogTool({
    name: 'wait_for_cancel',
    description: () => 'Waits until the call is cancelled.',
    inputSchema: z.strictObject({ tag: z.string().describe('Names the call.') }),
    mutates: false,
    execute: (input, { signal }) =>
      new Promise<{ request: typeof input; response: string }>((_resolve, reject) => {
        started.add(input.tag);
        running += 1;
        for (const resolve of waiting.get(input.tag) ?? []) resolve();
        waiting.delete(input.tag);
        const stop = () => {
          running -= 1;
          reject(new Error('cancelled'));
        };
        if (signal?.aborted) stop();
        else signal?.addEventListener('abort', stop, { once: true });
      }),
    toModelOutput: (output) => output.response,
  });
  return { tool, calls };
}

/** Resolves once `check()` holds, or after `timeoutMs` (the caller asserts what it sees). */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check() && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The headers a Streamable HTTP client sends with every POST. */
export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
} as const;

/** The JSON-RPC body of a tools/call. */
export function callBody(id: number | string, name: string, args: object): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
}
