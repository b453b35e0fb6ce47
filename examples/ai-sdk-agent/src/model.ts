import { createOpenAI } from '@ai-sdk/openai';
import type { ModelDescription } from '@catalogkit/example-shared';
import type { LanguageModel } from 'ai';
import { createScriptedModel, SCRIPTED_MODEL_LABEL } from './scripted-model.js';

/** The OpenAI model used when OPENAI_MODEL is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** A model and how to describe it in the run header. */
export interface ChosenModel {
  model: LanguageModel;
  description: ModelDescription;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A real OpenAI model when OPENAI_API_KEY is set (OPENAI_MODEL picks it, OPENAI_BASE_URL
 * points at a compatible endpoint); otherwise the offline scripted model.
 */
export function chooseModel(env: Env = process.env): ChosenModel {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) {
    return {
      model: createScriptedModel(),
      description: { scripted: true, label: SCRIPTED_MODEL_LABEL },
    };
  }
  const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
  const baseURL = env.OPENAI_BASE_URL?.trim();
  const openai = createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) });
  return { model: openai(modelId), description: { scripted: false, label: `openai ${modelId}` } };
}
