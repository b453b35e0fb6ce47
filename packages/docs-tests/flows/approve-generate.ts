// approve.ts: one turn of a shopping agent; a collection changes only once the shopper agrees.
import { openai } from '@ai-sdk/openai';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { generateText, type ModelMessage, stepCountIs, type ToolApprovalResponse } from 'ai';

const model = openai('gpt-4.1-mini'); // reads OPENAI_API_KEY
const tools = createCatalogTools(); // reads CATALOG_API_KEY, CATALOG_BASE_URL, CATALOG_MCP_URL

/** Runs one turn and returns the conversation after it (keep it for the next turn). */
export async function turn(
  messages: ModelMessage[],
  askUser: (question: string) => Promise<boolean>,
): Promise<{ text: string; messages: ModelMessage[] }> {
  const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
  // Every step's messages (the search before the approval too), not result.response.messages:
  // on ai 7 that is the last step's only.
  const history: ModelMessage[] = [...messages, ...result.responseMessages];
  const approvals: ToolApprovalResponse[] = [];
  for (const part of result.content) {
    if (part.type !== 'tool-approval-request') continue;
    const approved = await askUser(`Run ${part.toolCall.toolName}?`);
    approvals.push({ type: 'tool-approval-response', approvalId: part.approvalId, approved });
  }
  if (approvals.length === 0) return { text: result.text, messages: history };

  // The approved call runs first, then the model goes on with the whole conversation.
  const answered: ModelMessage[] = [...history, { role: 'tool', content: approvals }];
  const next = await generateText({ model, tools, messages: answered, stopWhen: stepCountIs(5) });
  return { text: next.text, messages: [...answered, ...next.responseMessages] };
}
