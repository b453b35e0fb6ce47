// approve-stream.ts: the same turn streamed; a collection changes only once the shopper agrees.
import { openai } from '@ai-sdk/openai';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { type ModelMessage, stepCountIs, streamText, type ToolApprovalResponse } from 'ai';

const model = openai('gpt-4.1-mini'); // reads OPENAI_API_KEY
const tools = createCatalogTools(); // reads CATALOG_API_KEY, CATALOG_BASE_URL, CATALOG_MCP_URL

/** Streams one turn to `write` and returns the conversation after it. */
export async function streamTurn(
  messages: ModelMessage[],
  askUser: (question: string) => Promise<boolean>,
  write: (text: string) => void,
): Promise<ModelMessage[]> {
  const stream = streamText({ model, tools, messages, stopWhen: stepCountIs(5) });
  const approvals: ToolApprovalResponse[] = [];
  for await (const part of stream.fullStream) {
    if (part.type === 'text-delta') write(part.text);
    if (part.type === 'tool-approval-request') {
      const approved = await askUser(`Run ${part.toolCall.toolName}?`);
      approvals.push({ type: 'tool-approval-response', approvalId: part.approvalId, approved });
    }
  }
  // Every step's messages (the search before the approval too), not (await stream.response).messages:
  // on ai 7 that is the last step's only.
  const history: ModelMessage[] = [...messages, ...(await stream.responseMessages)];
  if (approvals.length === 0) return history;

  const answered: ModelMessage[] = [...history, { role: 'tool', content: approvals }];
  const resumed = streamText({ model, tools, messages: answered, stopWhen: stepCountIs(5) });
  for await (const text of resumed.textStream) write(text);
  return [...answered, ...(await resumed.responseMessages)];
}
