import type { CatalogStore } from '@catalogkit/core';
import { SESSION_MAX_AGE_S } from './session.js';

/**
 * Which shopper session created each conversation, so only that session gets tokens for
 * it. Behind this interface so that several server instances can share one memory: a
 * conversation created through one instance continues through any other.
 */
export interface ConversationOwners {
  /** The session that created `conversationId`, or undefined when none this server knows. */
  ownerOf(conversationId: string): Promise<string | undefined>;
  /** Records that `session` owns `conversationId` (again: refreshes it). */
  remember(conversationId: string, session: string): Promise<void>;
}

/**
 * The in-process {@link ConversationOwners}: the newest `max` conversations, the oldest
 * forgotten first, so that callers cannot grow it without end. A forgotten conversation is
 * refused like one this server never created.
 */
export class MemoryConversationOwners implements ConversationOwners {
  readonly #owners = new Map<string, string>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  async ownerOf(conversationId: string): Promise<string | undefined> {
    return this.#owners.get(conversationId);
  }

  async remember(conversationId: string, session: string): Promise<void> {
    // Re-inserted, so the map's order is oldest first.
    this.#owners.delete(conversationId);
    this.#owners.set(conversationId, session);
    const oldest = this.#owners.keys().next().value;
    if (this.#owners.size > this.#max && oldest !== undefined) this.#owners.delete(oldest);
  }
}

/**
 * {@link ConversationOwners} in a shared `CatalogStore`: one key per conversation,
 * `webchat:conversation:<id>` holding the owner's session id (22 characters), kept as long
 * as a session cookie lives (12 hours) after the conversation's last token. Bounded by that
 * life rather than by a count: the rate limits cap how many a client can create.
 */
export class StoreConversationOwners implements ConversationOwners {
  readonly #store: CatalogStore;

  constructor(store: CatalogStore) {
    this.#store = store;
  }

  async ownerOf(conversationId: string): Promise<string | undefined> {
    return (await this.#store.get(keyOf(conversationId)))?.value;
  }

  async remember(conversationId: string, session: string): Promise<void> {
    await this.#store.set(keyOf(conversationId), session, SESSION_MAX_AGE_S * 1000);
  }
}

const keyOf = (conversationId: string): string => `webchat:conversation:${conversationId}`;
