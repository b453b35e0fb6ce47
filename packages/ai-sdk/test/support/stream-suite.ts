import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import type { ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openAiResultsSeen,
  type ScriptedTurn,
  startOpenAiStandIn as startOpenAiChatStandIn,
} from '../../../testing/src/stand-ins/index.js';
import { createCatalogTools, type SearchCatalogOutput } from '../../src/index.js';

/** What one `streamText` run gave, read the same way on AI SDK 6 and 7. */
export interface StreamOutcome {
  /** The text deltas, in order. */
  textDeltas: string[];
  /** Types of the full stream's parts, in order. */
  partTypes: string[];
  /** `approvalId` of each `tool-approval-request` part. */
  approvalIds: string[];
  toolResults: { toolName: string; output: unknown }[];
  responseMessages: unknown[];
}

/** `streamText` of one major version, with `@ai-sdk/openai` of that line at `baseURL`. */
export interface StreamHarness {
  major: 6 | 7;
  stream(run: { baseURL: string; tools: ToolSet; messages: unknown[] }): Promise<StreamOutcome>;
}

const noChange = {
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};

/**
 * streamText with the catalog tools through `@ai-sdk/openai` (streamed Chat Completions
 * from a loopback stand-in), against the emulator: results and text stream, and
 * update_collection waits for the user's approval across two requests.
 */
export function describeStreaming(harness: StreamHarness): void {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  const tools = () =>
    createCatalogTools({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
    }) as ToolSet;

  describe(`streamText with the catalog tools (ai ${harness.major})`, () => {
    it('streams the answer after a search; the app gets the products, the model the compact view', async () => {
      const turns: ScriptedTurn[] = [
        [{ name: 'search_catalog', args: { query: 'rain jacket', limit: 2 } }],
        'Here are two rain jackets for you.',
      ];
      const standIn = await startOpenAiChatStandIn(turns);
      try {
        const outcome = await harness.stream({
          baseURL: standIn.baseURL,
          tools: tools(),
          messages: [{ role: 'user', content: 'Find rain jackets' }],
        });
        expect(outcome.textDeltas.length).toBeGreaterThan(1);
        expect(outcome.textDeltas.join('')).toBe(turns[1]);
        const [search] = outcome.toolResults;
        expect(search?.toolName).toBe('search_catalog');
        const products = (search!.output as SearchCatalogOutput).response.products;
        expect(products.length).toBeGreaterThan(0);
        const [seen] = openAiResultsSeen(standIn.requests[1]);
        expect(seen?.text).toContain(buyLinkReference(products[0]!.variants[0]!.url!));
        expect(standIn.schemaProblems).toEqual([]);
      } finally {
        await standIn.close();
      }
    });

    it('stops for approval of update_collection, then runs it once approved', async () => {
      const rename = { ...noChange, collection_id: 'col_summer', name: 'Beach days' };
      const standIn = await startOpenAiChatStandIn([
        [{ name: 'update_collection', args: rename }],
        'Your collection is now called Beach days.',
      ]);
      try {
        const catalogTools = tools();
        const messages: unknown[] = [{ role: 'user', content: 'Rename Summer to Beach days' }];
        const asked = await harness.stream({
          baseURL: standIn.baseURL,
          tools: catalogTools,
          messages,
        });

        // The stream ends at the approval request: nothing ran, nothing changed.
        expect(asked.partTypes).toContain('tool-approval-request');
        expect(asked.toolResults).toEqual([]);
        expect(asked.approvalIds).toHaveLength(1);
        expect(emulator.state.collections.get('col_summer')?.name).toBe('Summer');
        expect(standIn.requests).toHaveLength(1);

        // The user approves; the next stream runs the update and streams the answer.
        const approval = {
          role: 'tool',
          content: [
            { type: 'tool-approval-response', approvalId: asked.approvalIds[0], approved: true },
          ],
        };
        const resumed = await harness.stream({
          baseURL: standIn.baseURL,
          tools: catalogTools,
          messages: [...messages, ...asked.responseMessages, approval],
        });
        expect(emulator.state.collections.get('col_summer')?.name).toBe('Beach days');
        expect(resumed.toolResults.map((result) => result.toolName)).toEqual(['update_collection']);
        expect(resumed.textDeltas.join('')).toBe('Your collection is now called Beach days.');
        const [seen] = openAiResultsSeen(standIn.requests[1]);
        expect(seen?.text).toContain('Beach days');
        expect(JSON.stringify(standIn.requests.map((r) => r.body))).not.toContain(
          emulator.keys.valid,
        );
      } finally {
        await standIn.close();
      }
    });
  });
}

/** Reads a `fullStream` into a {@link StreamOutcome}; parts are typed loosely across versions. */
export async function readStream(
  fullStream: AsyncIterable<{ type: string }>,
  response: PromiseLike<{ messages: readonly unknown[] }>,
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = {
    textDeltas: [],
    partTypes: [],
    approvalIds: [],
    toolResults: [],
    responseMessages: [],
  };
  for await (const part of fullStream) {
    outcome.partTypes.push(part.type);
    const fields = part as {
      text?: string;
      delta?: string;
      approvalId?: string;
      toolName?: string;
      output?: unknown;
    };
    if (part.type === 'text-delta') outcome.textDeltas.push(fields.text ?? fields.delta ?? '');
    if (part.type === 'tool-approval-request') outcome.approvalIds.push(String(fields.approvalId));
    if (part.type === 'tool-result') {
      outcome.toolResults.push({ toolName: String(fields.toolName), output: fields.output });
    }
    if (part.type === 'error') throw (part as { error?: unknown }).error;
  }
  outcome.responseMessages = [...(await response).messages];
  return outcome;
}
