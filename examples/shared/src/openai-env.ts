import type { ModelDescription } from './events.js';

/** The OpenAI model used when OPENAI_MODEL is not set. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** What both examples need to build a real OpenAI model, read from the environment. */
export interface OpenAiSettings {
  apiKey: string;
  /** OPENAI_MODEL, else {@link DEFAULT_OPENAI_MODEL}. */
  modelId: string;
  /** OPENAI_BASE_URL: an OpenAI-compatible endpoint; undefined for OpenAI itself. */
  baseURL?: string;
  /** For the run header; never contains the key. */
  description: ModelDescription;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The real model's settings when OPENAI_API_KEY is set (blank counts as unset, so a `.env`
 * copied from `.env.example` stays offline); undefined means: use the scripted model.
 */
export function readOpenAiSettings(env: Env): OpenAiSettings | undefined {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return undefined;
  const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
  const baseURL = env.OPENAI_BASE_URL?.trim();
  return {
    apiKey,
    modelId,
    ...(baseURL ? { baseURL } : {}),
    description: { scripted: false, label: `openai ${modelId}` },
  };
}
