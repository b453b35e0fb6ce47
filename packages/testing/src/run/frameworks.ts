import type { Framework } from '../scenarios/types.js';
import type { ServiceClientOptions } from '../service/catalog-service.js';
import type { ModuleLoader } from './load.js';

/** The model id the stand-in is asked for (any id works; this one has strict tools). */
export const STAND_IN_MODEL = 'gpt-4.1-mini';
/** The provider key given to the model package: the stand-in accepts any. */
const STAND_IN_KEY = 'sk-catalogkit-stand-in';

/** The frameworks an agent module may name. */
export const FRAMEWORKS: readonly Framework[] = ['ai-sdk', 'langchain', 'openai-agents'];

/** Where a framework's model and tools come from. */
export interface FrameworkSetup {
  model: unknown;
  tools: unknown;
}

type Factory = (...args: never[]) => unknown;

/** A function export of a loaded package, or an error naming what is missing. */
async function exported<F extends Factory>(
  load: ModuleLoader,
  name: string,
  key: string,
): Promise<F> {
  const module = await load(name);
  const value = module[key] ?? (module.default as Record<string, unknown> | undefined)?.[key];
  if (typeof value !== 'function')
    throw new Error(`${name} has no export ${key}: is it a supported version?`);
  return value as F;
}

type CreateTools = (options: {
  clientOptions: ServiceClientOptions;
  serviceTools: readonly string[];
}) => unknown;

/** Where the agent's tools find the service, and the tools it lists (`serviceTools`). */
export interface ServiceSetup {
  clientOptions: ServiceClientOptions;
  serviceTools: readonly string[];
}

async function tools(load: ModuleLoader, adapter: string, service: ServiceSetup) {
  const createCatalogTools = await exported<CreateTools>(load, adapter, 'createCatalogTools');
  return createCatalogTools(service);
}

async function aiSdk(load: ModuleLoader, baseURL: string, service: ServiceSetup) {
  type CreateOpenAI = (options: { baseURL: string; apiKey: string }) => (id: string) => unknown;
  const createOpenAI = await exported<CreateOpenAI>(load, '@ai-sdk/openai', 'createOpenAI');
  return {
    model: createOpenAI({ baseURL, apiKey: STAND_IN_KEY })(STAND_IN_MODEL),
    tools: await tools(load, '@catalogkit/ai-sdk', service),
  };
}

async function langChain(load: ModuleLoader, baseURL: string, service: ServiceSetup) {
  type ChatOpenAI = new (options: {
    model: string;
    apiKey: string;
    configuration: { baseURL: string };
  }) => unknown;
  const Chat = (await exported<Factory>(
    load,
    '@langchain/openai',
    'ChatOpenAI',
  )) as unknown as ChatOpenAI;
  return {
    model: new Chat({ model: STAND_IN_MODEL, apiKey: STAND_IN_KEY, configuration: { baseURL } }),
    tools: await tools(load, '@catalogkit/langchain', service),
  };
}

async function openAiAgents(load: ModuleLoader, baseURL: string, service: ServiceSetup) {
  type Provider = new (options: {
    apiKey: string;
    baseURL: string;
  }) => {
    getModel(id: string): unknown;
  };
  // Traces would go to OpenAI's servers: the run stays on loopback.
  const setTracingDisabled = await exported<(disabled: boolean) => void>(
    load,
    '@openai/agents',
    'setTracingDisabled',
  );
  setTracingDisabled(true);
  const OpenAIProvider = (await exported<Factory>(
    load,
    '@openai/agents',
    'OpenAIProvider',
  )) as unknown as Provider;
  return {
    model: await new OpenAIProvider({ apiKey: STAND_IN_KEY, baseURL }).getModel(STAND_IN_MODEL),
    tools: await tools(load, '@catalogkit/openai-agents', service),
  };
}

/**
 * The model and tools for an agent of `framework`: the framework's own OpenAI model
 * pointed at the stand-in (`baseURL`), and catalogkit's tools for it built with
 * `service` (`clientOptions` and the `serviceTools` the service lists), each loaded with `load` from the project's own packages.
 */
export function setUpFramework(
  framework: Framework,
  options: { baseURL: string; service: ServiceSetup; load: ModuleLoader },
): Promise<FrameworkSetup> {
  const { baseURL, service, load } = options;
  if (framework === 'langchain') return langChain(load, baseURL, service);
  if (framework === 'openai-agents') return openAiAgents(load, baseURL, service);
  return aiSdk(load, baseURL, service);
}
