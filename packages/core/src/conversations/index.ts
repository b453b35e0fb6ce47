/*
 * `@catalogkit/core/conversations`: chats with the service's own assistant. The token
 * manager (one short-lived conversation token per chat, refreshed near expiry), the chat
 * session (create once, mint, send a turn only on shopper input), the HTTP minter and turn
 * sender, and the stores (the same ones the root exports). Importing this entry pulls in neither the tools nor the
 * buy-link guards. Their errors (TokenMintError, SessionLockTimeoutError) are at
 * `@catalogkit/core/errors`.
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
