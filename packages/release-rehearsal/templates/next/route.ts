// A Next.js App Router route handler (app/api/search/route.ts): the catalog tools in
// streamText, answered as a UI message stream. The model is scripted with ai/test: first a
// search_catalog call, then a short text once it has read the tool's output.
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { CatalogClient } from '@catalogkit/core';
import { createRedisStore } from '@catalogkit/redis';
import { simulateReadableStream, stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Redis } from 'ioredis';

export const dynamic = 'force-dynamic';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const finish = (unified: 'stop' | 'tool-calls') => ({
  type: 'finish' as const,
  finishReason: { unified, raw: unified },
  usage,
});

function scriptedModel(query: string): MockLanguageModelV3 {
  const input = { query, limit: 2, cursor: null, placements: null };
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async () => {
      const parts =
        model.doStreamCalls.length === 1
          ? [
              {
                type: 'tool-call' as const,
                toolCallId: 'call_1',
                toolName: 'search_catalog',
                input: JSON.stringify(input),
              },
              finish('tool-calls'),
            ]
          : [
              { type: 'text-start' as const, id: 't' },
              { type: 'text-delta' as const, id: 't', delta: 'Done.' },
              { type: 'text-end' as const, id: 't' },
              finish('stop'),
            ];
      const start = { type: 'stream-start' as const, warnings: [] };
      return { stream: simulateReadableStream({ chunks: [start, ...parts] }) };
    },
  });
  return model;
}

// At module scope, as the README's Deploying section writes it: `next build` imports this file
// with no CATALOG_* settings and no reachable Redis (the rehearsal builds it so), which must do
// no I/O and need no settings; both are read at the first call.
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
});
redis.on('error', () => {});
const client = new CatalogClient({ store: createRedisStore(redis) });
const tools = createCatalogTools({ client, include: ['search_catalog'] });

export async function POST(request: Request): Promise<Response> {
  const { query } = (await request.json()) as { query: string };
  const result = streamText({
    model: scriptedModel(query),
    tools,
    stopWhen: stepCountIs(3),
    prompt: query,
  });
  return result.toUIMessageStreamResponse();
}
