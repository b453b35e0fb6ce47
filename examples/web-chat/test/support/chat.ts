import type { UIMessage } from 'ai';
import { expect } from 'vitest';
import { answerApproval, chunksOf, messageOf, type Shopper, userMessage } from './api.js';

/** One `useChat` conversation driven over HTTP: the history the page would keep and send. */
export class ChatDriver {
  messages: UIMessage[] = [];
  readonly #shopper: Shopper;
  readonly id: string;
  #count = 0;

  constructor(shopper: Shopper, id = 'chat_1') {
    this.#shopper = shopper;
    this.id = id;
  }

  /** The body the page would send now. */
  body(): string {
    return JSON.stringify({ id: this.id, messages: this.messages, trigger: 'submit-message' });
  }

  /** The shopper types `text`; resolves with the assistant's answer, added to the history. */
  async say(text: string): Promise<UIMessage> {
    this.messages.push(userMessage(`user_${++this.#count}`, text));
    const response = await this.#shopper.post('/api/chat', this.body());
    expect(response.status, await reasonOf(response)).toBe(200);
    const message = await messageOf(await chunksOf(response));
    this.messages.push(message);
    return message;
  }

  /**
   * The shopper presses Approve (or Deny): the history is sent again with the answer.
   * Resolves with the exact body sent (to replay it) and the response status.
   */
  async answer(approved: boolean): Promise<{ recorded: string; status: number }> {
    const last = this.messages.pop();
    if (!last) throw new Error('nothing to answer');
    const answered = answerApproval(last, approved);
    this.messages.push(answered);
    const recorded = this.body();
    const response = await this.#shopper.post('/api/chat', recorded);
    if (response.status === 200) {
      this.messages[this.messages.length - 1] = await messageOf(await chunksOf(response), answered);
    }
    return { recorded, status: response.status };
  }
}

/** The `error` of a JSON refusal, or '' (for assertion messages). */
export async function reasonOf(response: Response): Promise<string> {
  if (response.status === 200) return '';
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { error?: string };
  return body.error ?? '';
}
