import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll } from 'vitest';

/** The emulator of a test file, and the client options that reach it with the valid key. */
export interface OfflineEmulator {
  emulator(): RunningEmulator;
  clientOptions(target?: RunningEmulator): { apiKey: string; baseUrl: string; mcpUrl: string };
}

/**
 * Starts an emulator for the test file (and stops it after), with tracing off so nothing is
 * exported to OpenAI: the runs stay offline.
 */
export function useOfflineEmulator(): OfflineEmulator {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    setTracingDisabled(true);
    running = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await running?.close();
  });
  const emulator = (): RunningEmulator => {
    if (!running) throw new Error('the emulator starts in beforeAll');
    return running;
  };
  return {
    emulator,
    clientOptions: (target = emulator()) => ({
      apiKey: target.keys.valid,
      baseUrl: target.baseUrl,
      mcpUrl: target.mcpUrl,
    }),
  };
}
