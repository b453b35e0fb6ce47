/**
 * What `pnpm chat` runs against, from the environment: the real service with
 * CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL (else the emulator, started here),
 * and an OpenAI model with OPENAI_API_KEY (else the scripted model).
 */
import { createOpenAI } from '@ai-sdk/openai';
import { startEmulator, USER_IDS } from '@catalogkit/emulator';
import type { LanguageModel } from 'ai';
import { createScriptedModel, SCRIPTED_MODEL_LABEL } from '../scripted-model.js';
import type { WebChatOptions } from '../server.js';

/** The catalog service the server talks to, and what to print about it. */
export interface ChosenCatalog {
  catalog: { apiKey: string; baseUrl: string; mcpUrl: string };
  label: string;
  collections: WebChatOptions['collections'];
  close(): Promise<void>;
}

export async function chooseCatalog(env: NodeJS.ProcessEnv = process.env): Promise<ChosenCatalog> {
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

export function chooseModel(env: NodeJS.ProcessEnv = process.env): {
  model: LanguageModel;
  label: string;
} {
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
