import type { ModelDescription } from '@catalogkit/example-shared';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { SCRIPTED_CHAT_MODEL_LABEL, ScriptedShopperChatModel } from './scripted-chat-model.js';

/** The OpenAI model used when OPENAI_MODEL is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** A chat model and how to describe it in the run header. */
export interface ChosenChatModel {
  model: BaseChatModel;
  description: ModelDescription;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A real OpenAI chat model when OPENAI_API_KEY is set (OPENAI_MODEL picks it, OPENAI_BASE_URL
 * points at a compatible endpoint); otherwise the offline scripted model.
 */
export function chooseChatModel(env: Env = process.env): ChosenChatModel {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) {
    return {
      model: new ScriptedShopperChatModel({}),
      description: { scripted: true, label: SCRIPTED_CHAT_MODEL_LABEL },
    };
  }
  const model = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
  const baseURL = env.OPENAI_BASE_URL?.trim();
  return {
    model: new ChatOpenAI({ apiKey, model, ...(baseURL ? { configuration: { baseURL } } : {}) }),
    description: { scripted: false, label: `openai ${model}` },
  };
}
