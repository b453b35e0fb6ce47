// app/api/chat/route.ts
import { openai } from '@ai-sdk/openai';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { CatalogClient } from '@catalogkit/core';
import { convertToModelMessages, stepCountIs, streamText, type UIMessage } from 'ai';
import { store } from '../../../store';

// Made at module scope: no settings needed and no I/O until the first call, so `next build` passes.
const client = new CatalogClient({ store });
const tools = createCatalogTools({ client });

export async function POST(request: Request): Promise<Response> {
  const { messages }: { messages: UIMessage[] } = await request.json();
  const result = streamText({
    model: openai('gpt-4.1-mini'),
    tools,
    // `{ tools }` lets earlier catalog results reach the model as the compact view, not raw JSON.
    messages: await convertToModelMessages(messages, { tools }),
    stopWhen: stepCountIs(5),
  });
  return result.toUIMessageStreamResponse();
}
