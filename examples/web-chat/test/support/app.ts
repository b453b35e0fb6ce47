import {
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from '@catalogkit/emulator';
import { createScriptedModel } from '../../src/scripted-model.js';
import { type RunningWebChat, startWebChat, type WebChatOptions } from '../../src/server.js';
import { PAGE_DIR, SECRET_KEY } from './constants.js';
import { startTwoInstanceApp } from './instances.js';

export { PAGE_DIR, SECRET_KEY } from './constants.js';

export const TURNS_ROUTE = 'POST /v1/conversations/:conversation_id/turns';
export const PATCH_ROUTE = 'PATCH /v1/collections/:collection_id';

/** The emulator (with the test key) and the web chat server in front of it. */
export interface TestApp {
  emulator: RunningEmulator;
  chat: RunningWebChat;
  close(): Promise<void>;
}

/**
 * The app the tests run against: one server in this process, or, with
 * WEBCHAT_TEST_INSTANCES=2, two instance processes sharing a Redis behind the round-robin
 * proxy (the same tests then prove nothing depends on one process's memory).
 */
export async function startTestApp(
  emulatorOptions: StartEmulatorOptions = {},
  chatOptions: Partial<WebChatOptions> = {},
): Promise<TestApp> {
  if (process.env.WEBCHAT_TEST_INSTANCES === '2') {
    return startTwoInstanceApp(emulatorOptions, chatOptions);
  }
  const emulator = await startEmulator({ ...emulatorOptions, keys: { valid: SECRET_KEY } });
  const chat = await startWebChat({
    catalog: { apiKey: SECRET_KEY, baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
    model: createScriptedModel({ wordDelayMs: 10 }),
    pageDir: PAGE_DIR,
    ...chatOptions,
  });
  let closed = false;
  return {
    emulator,
    chat,
    close: async () => {
      if (closed) return;
      closed = true;
      // The service-down tests close the emulator or the server themselves.
      await chat.close().catch(() => undefined);
      await emulator.close().catch(() => undefined);
    },
  };
}
