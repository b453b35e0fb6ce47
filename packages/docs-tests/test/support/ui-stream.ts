import * as ai from 'ai';
import {
  convertToModelMessages,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';

/** The chunks of a UI message stream response (server-sent events), in order. */
export async function uiChunks(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
}

/** The assistant message the chunks build, as `useChat` assembles it. */
export async function assistantMessage(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  if (!last) throw new Error('the stream built no message');
  return last;
}

/** A user message as `useChat` sends it. */
export function userMessage(id: string, text: string): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** A POST to the route, as `useChat`'s default transport sends it. */
export function chatRequest(messages: UIMessage[]): Request {
  return new Request('http://localhost:3000/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'chat-1', messages, trigger: 'submit-message' }),
  });
}

/**
 * The major of `ai` this test runs on, told by behaviour as the adapter tells it
 * (`convertToModelMessages` returns the messages on 5, a promise from 6 on), checked against
 * the project's `DOCS_TESTS_AI_MAJOR`, so an alias that did not take effect fails the test.
 */
export function assertAiMajor(): void {
  const returned: unknown = convertToModelMessages([]);
  // `isStepCount` arrived in 7.
  const major = !(returned instanceof Promise) ? 5 : 'isStepCount' in ai ? 7 : 6;
  if (String(major) !== process.env.DOCS_TESTS_AI_MAJOR) {
    throw new Error(`expected ai ${process.env.DOCS_TESTS_AI_MAJOR}, running on ai ${major}`);
  }
}
