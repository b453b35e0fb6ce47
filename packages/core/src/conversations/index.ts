/*
 * `@catalogkit/core/conversations`: chats with the service's own assistant (token manager,
 * chat session, HTTP minter and turn sender, stores). It pulls in no tools.
 */

export {
  type CatalogStore,
  type LockOptions,
  MemoryCatalogStore,
  type MemoryCatalogStoreOptions,
  type ReleaseLock,
  type StoredValue,
} from '../store/index.js';
export type { BackoffOptions } from './backoff.js';
export {
  createHttpTokenMinter,
  createTurnSender,
  type HttpTokenMinterOptions,
  type RestCaller,
  type TurnInput,
  type TurnSender,
  type TurnSenderOptions,
} from './service-calls.js';
export { ChatSession, type ChatSessionOptions } from './session.js';
export { type ConversationTokenInfo, ConversationTokenManager } from './token-manager.js';
export type {
  CallOptions,
  ConversationTokenManagerOptions,
  InstantInput,
  MintContext,
  MintedToken,
  TokenMinter,
} from './token-manager-options.js';
