import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';

/**
 * What a browser tab of the page sends, without a browser: its own `Origin`, JSON, and the
 * session cookie the server set (one jar per "shopper"). Another jar is another shopper.
 */
export class Shopper {
  cookie = '';
  readonly #url: string;

  constructor(url: string) {
    this.#url = url;
  }

  get origin(): string {
    return new URL(this.#url).origin;
  }

  /** POSTs `body` (an object as JSON, a string as is) with the page's headers. */
  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(new URL(path, this.#url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const set = response.headers.get('set-cookie');
    if (set) this.cookie = set.split(';', 1)[0] ?? '';
    return response;
  }
}

/** The UI message stream chunks of an `/api/chat` answer. */
export async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
}

/** The assistant message an answer's chunks build, continuing `message` when given (as `useChat` does). */
export async function messageOf(chunks: UIMessageChunk[], message?: UIMessage): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream,
    ...(message ? { message: structuredClone(message) } : {}),
  })) {
    last = snapshot;
  }
  if (!last) throw new Error('the answer built no message');
  return last;
}

/** A shopper's text message. */
export function userMessage(id: string, text: string): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

type Part = UIMessage['parts'][number];

/** The message with its pending approval answered, as the page's Approve or Deny does. */
export function answerApproval(message: UIMessage, approved: boolean): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part): Part => {
      if (!('state' in part) || part.state !== 'approval-requested') return part;
      return {
        ...part,
        state: 'approval-responded',
        approval: { ...part.approval, approved },
      } as Part;
    }),
  };
}

/** The approval id a message asks the shopper about. */
export function approvalIdOf(message: UIMessage): string | undefined {
  for (const part of message.parts) {
    if ('approval' in part && part.approval) return part.approval.id;
  }
  return undefined;
}
