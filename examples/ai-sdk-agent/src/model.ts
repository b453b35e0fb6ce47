import { createOpenAI } from '@ai-sdk/openai';
import { type ModelDescription, readOpenAiSettings } from '@catalogkit/example-shared';
import type { LanguageModel } from 'ai';
import { createScriptedModel, SCRIPTED_MODEL_LABEL } from './scripted-model.js';

/** A model and how to describe it in the run header. */
export interface ChosenModel {
  model: LanguageModel;
  description: ModelDescription;
}

/**
 * A real OpenAI model when OPENAI_API_KEY is set (OPENAI_MODEL picks it, OPENAI_BASE_URL
 * points at a compatible endpoint); otherwise the offline scripted model. To use another
 * provider, return its model here (e.g. `anthropic(modelId)` from `@ai-sdk/anthropic`).
 */
export function chooseModel(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ChosenModel {
  const openai = readOpenAiSettings(env);
  if (!openai) {
    return {
      model: createScriptedModel(),
      description: { scripted: true, label: SCRIPTED_MODEL_LABEL },
    };
  }
  const provider = createOpenAI({
    apiKey: openai.apiKey,
    ...(openai.baseURL ? { baseURL: openai.baseURL } : {}),
  });
  return { model: provider(openai.modelId), description: openai.description };
}
