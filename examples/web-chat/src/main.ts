/**
 * `pnpm chat`: serves the built page and the two API routes. Offline by default (the
 * emulator in this process, the scripted model); the real service with CATALOG_API_KEY,
 * CATALOG_BASE_URL and CATALOG_MCP_URL, and an OpenAI model with OPENAI_API_KEY.
 * SHOW_COMMISSION=1 shows commissions on the cards (a publisher's view).
 */
import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import { startEmulator, USER_IDS } from '@catalogkit/emulator';
import type { LanguageModel } from 'ai';
import { createScriptedModel, SCRIPTED_MODEL_LABEL } from './scripted-model.js';
import { startWebChat, type WebChatOptions } from './server.js';

const env = process.env;
const PAGE_DIR = fileURLToPath(new URL('../dist', import.meta.url));

async function chooseCatalog(): Promise<{
  catalog: WebChatOptions['catalog'];
  label: string;
  collections: WebChatOptions['collections'];
  close(): Promise<void>;
}> {
  const { CATALOG_API_KEY: apiKey, CATALOG_BASE_URL: baseUrl, CATALOG_MCP_URL: mcpUrl } = env;
  if (apiKey && baseUrl && mcpUrl) {
    return {
      catalog: { apiKey, baseUrl, mcpUrl },
      label: baseUrl,
      collections: [],
      close: async () => {},
    };
  }
  if (apiKey || baseUrl || mcpUrl) {
    throw new Error('Set all of CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL, or none.');
  }
  const emulator = await startEmulator();
  // The demo shopper's collections ("Summer", ...), as a real app would know its user's.
  const collections = [...emulator.state.collections.values()]
    .filter((collection) => collection.user_id === USER_IDS.valid)
    .map((collection) => ({ id: collection.collection_id, name: collection.name }));
  return {
    collections,
    catalog: { apiKey: emulator.keys.valid, baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
    label: `emulator in this process at ${emulator.baseUrl} (set CATALOG_* for the real service)`,
    close: () => emulator.close(),
  };
}

function chooseModel(): { model: LanguageModel; label: string } {
  if (!env.OPENAI_API_KEY) {
    return {
      model: createScriptedModel(),
      label: `${SCRIPTED_MODEL_LABEL}; set OPENAI_API_KEY for a real one`,
    };
  }
  const modelId = env.OPENAI_MODEL ?? 'gpt-4.1-mini';
  const openai = createOpenAI({
    apiKey: env.OPENAI_API_KEY,
    ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
  });
  return { model: openai(modelId), label: `OpenAI ${modelId}` };
}

const catalog = await chooseCatalog();
const model = chooseModel();
const chat = await startWebChat({
  catalog: catalog.catalog,
  model: model.model,
  pageDir: PAGE_DIR,
  port: Number(env.PORT ?? 3000),
  logger: console,
  showCommission: env.SHOW_COMMISSION === '1' || env.SHOW_COMMISSION === 'true',
  collections: catalog.collections,
});
process.stdout.write(
  [
    'catalogkit web chat',
    `  open:    ${chat.url}`,
    `  catalog: ${catalog.label}`,
    `  model:   ${model.label}`,
    '  Ctrl+C stops it.',
    '',
  ].join('\n'),
);
process.once('SIGINT', () => {
  void Promise.all([chat.close(), catalog.close()]).then(() => process.exit(0));
});
