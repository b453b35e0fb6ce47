export type { BackoffOptions } from './backoff.js';
export { SessionLockTimeoutError, TokenMintError } from './errors.js';
export {
  createHttpTokenMinter,
  createTurnSender,
  type HttpTokenMinterOptions,
  type RestCaller,
  type TurnInput,
  type TurnSender,
  type TurnSenderOptions,
} from './http.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './memory-store.js';
export { ChatSession, type ChatSessionOptions } from './session.js';
export type { LockOptions, ReleaseLock, SessionStore, StoredValue } from './store.js';
export { type ConversationTokenInfo, ConversationTokenManager } from './token-manager.js';
export type { ConversationTokenManagerOptions } from './token-manager-options.js';
export type { CallOptions, InstantInput, MintContext, MintedToken, TokenMinter } from './types.js';
export {
  type ConversationToken,
  ConversationTokenSchema,
  type TokenMintRequest,
  TokenMintRequestSchema,
  type Turn,
  type TurnRequest,
  TurnRequestSchema,
  TurnSchema,
} from './wire.js';
