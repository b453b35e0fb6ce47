import { type ModelDescription, readOpenAiSettings } from '@catalogkit/example-shared';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { SCRIPTED_CHAT_MODEL_LABEL, ScriptedShopperChatModel } from './scripted-chat-model.js';

/** A chat model and how to describe it in the run header. */
export interface ChosenChatModel {
  model: BaseChatModel;
  description: ModelDescription;
}

/**
 * A real OpenAI chat model when OPENAI_API_KEY is set (OPENAI_MODEL picks it, OPENAI_BASE_URL
 * points at a compatible endpoint); otherwise the offline scripted model. Any chat model that
 * supports tool calling works here (e.g. `new ChatAnthropic({ model })` from
 * `@langchain/anthropic`).
 */
export function chooseChatModel(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ChosenChatModel {
  const openai = readOpenAiSettings(env);
  if (!openai) {
    return {
      model: new ScriptedShopperChatModel({}),
      description: { scripted: true, label: SCRIPTED_CHAT_MODEL_LABEL },
    };
  }
  const model = new ChatOpenAI({
    apiKey: openai.apiKey,
    model: openai.modelId,
    ...(openai.baseURL ? { configuration: { baseURL: openai.baseURL } } : {}),
  });
  return { model, description: openai.description };
}
