import { chatCompletionsWire } from './openai-chat.js';
import { responsesWire } from './openai-responses.js';
import type { ModelScript, StandInScriptOptions } from './script.js';
import { startScriptedStandIn } from './scripted.js';
import type { RunningStandIn } from './server.js';

/**
 * A stand-in of OpenAI's API on loopback: Chat Completions (`POST /v1/chat/completions`, which
 * `@langchain/openai`, `openai.chat()` of `@ai-sdk/openai` and `@openai/agents` with
 * `useResponses: false` call) and Responses (`POST /v1/responses`, the default of
 * `@ai-sdk/openai` and `@openai/agents`), JSON or streamed. Strict tools are checked against
 * OpenAI's strict-mode rules (a 400 like OpenAI's when one breaks them; in Responses a tool
 * is strict unless it says `strict: false`), and the model writes every field of a strict
 * tool, `null` for "not given".
 *
 * @example
 * const standIn = await startOpenAiStandIn([[{ name: 'search_catalog', args: { query: 'tents' } }], 'Done.']);
 * const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'test' })('gpt-4.1-mini');
 * // ... run your agent, then read standIn.views (what the model was shown)
 * await standIn.close();
 */
export function startOpenAiStandIn(
  script: ModelScript,
  options?: StandInScriptOptions,
): Promise<RunningStandIn> {
  return startScriptedStandIn('/v1', [chatCompletionsWire(true), responsesWire()], script, options);
}

/**
 * A stand-in of an OpenAI-compatible server (vLLM, Ollama, LM Studio...) in front of an open
 * model: Chat Completions at `/v1`, any tool schema accepted, optional fields left out of
 * tool calls (strict or not), as `@ai-sdk/openai-compatible` and `ChatOpenAI` with a custom
 * base URL meet them.
 */
export function startOpenAiCompatibleStandIn(
  script: ModelScript,
  options?: StandInScriptOptions,
): Promise<RunningStandIn> {
  return startScriptedStandIn('/v1', [chatCompletionsWire(false)], script, options);
}
