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
