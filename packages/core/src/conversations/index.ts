// `@catalogkit/core/conversations`: chats with the service's own assistant; pulls in no tools.

export {
  type CatalogStore,
  type LockOptions,
  MemoryCatalogStore,
  type MemoryCatalogStoreOptions,
  type ReleaseLock,
  type StoredValue,
} from '../store/index.js';
export { createHttpTokenMinter, createTurnSender, type TurnSender } from './service-calls.js';
export { ChatSession, type ChatSessionOptions } from './session.js';
export {
  type CallOptions,
  ConversationTokenManager,
  type ConversationTokenManagerOptions,
  type MintedToken,
  type TokenMinter,
} from './token-manager.js';
