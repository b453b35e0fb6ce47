import { fileURLToPath } from 'node:url';
import {
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from '@catalogkit/emulator';
import { createScriptedModel } from '../../src/scripted-model.js';
import { type RunningWebChat, startWebChat, type WebChatOptions } from '../../src/server.js';

/**
 * The API key of these tests. Distinct from every other string the app produces, so
 * finding it anywhere the browser can see is a leak, never a coincidence.
 */
export const SECRET_KEY = 'ck_test_webchat_secret_7q2x9v4m';

/** The built page (`vite build` runs before the tests, see package.json). */
export const PAGE_DIR = fileURLToPath(new URL('../../dist', import.meta.url));

export const TURNS_ROUTE = 'POST /v1/conversations/:conversation_id/turns';
export const PATCH_ROUTE = 'PATCH /v1/collections/:collection_id';

/** The emulator (with the test key) and the web chat server in front of it. */
export interface TestApp {
  emulator: RunningEmulator;
  chat: RunningWebChat;
  close(): Promise<void>;
}

export async function startTestApp(
  emulatorOptions: StartEmulatorOptions = {},
  chatOptions: Partial<WebChatOptions> = {},
): Promise<TestApp> {
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
