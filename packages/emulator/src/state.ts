import { type StoredCollection, seedCollections } from './data/collections.js';
import type { CatalogData } from './data/index.js';
import { sequentialId } from './ids.js';

/** A conversation token minted with an API key. */
export interface StoredToken {
  token: string;
  token_id: string;
  conversation_id: string;
  expires_at: Date;
}

/** One shopper message and the emulator's reply. */
export interface StoredTurn {
  turn_id: string;
  message: string;
  reply: { role: 'assistant'; content: string };
  token_id: string;
}

/** A conversation as stored, with the tokens minted for it and its turns. */
export interface StoredConversation {
  conversation_id: string;
  user_id: string;
  created_at: string;
  /** The JSON object the conversation was created with. */
  metadata: Record<string, unknown>;
  tokens: StoredToken[];
  turns: StoredTurn[];
}

/**
 * Everything an emulator instance changes at run time. Tests read it to assert what the
 * service applied ("added once", "one token minted").
 */
export class EmulatorState {
  readonly collections = new Map<string, StoredCollection>();
  readonly conversations = new Map<string, StoredConversation>();
  /** Conversation tokens by their secret value. */
  readonly tokens = new Map<string, StoredToken>();
  private readonly counters = new Map<string, number>();

  constructor(data: CatalogData) {
    let seededClauses = 0;
    for (const collection of seedCollections(data)) {
      this.collections.set(collection.collection_id, collection);
      seededClauses += collection.clauses.length;
    }
    // New clause ids continue after the seeded ones (cl_0001...).
    this.counters.set('cl_', seededClauses);
  }

  /** A new id such as `cl_0007`, unique within this instance. */
  nextId(prefix: string): string {
    const next = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, next);
    return sequentialId(prefix, next);
  }
}
