import type { FaultRule } from './faults.js';
import type { EmulatorPaymentOptions } from './payment/desk.js';

/** API keys the emulator recognises. Each one drives a different behaviour of the service. */
export interface EmulatorKeys {
  /** A working key (user `usr_demo`, owner of the "Summer" collection `col_summer`). */
  valid: string;
  /** A working key of another user (`usr_other`): its collections are invisible to `valid`. */
  otherUser: string;
  /** Free credits used up: REST answers 402 asking for a payment method. */
  creditsExhausted: string;
  /**
   * Machine payments: every REST call and MCP `tools/call` with this key is answered 402
   * with `WWW-Authenticate: Payment` challenges (`tempo`, then `test`); resent with
   * `Authorization: Payment <credential>` for the `test` challenge, it runs as the `valid`
   * key's user and the answer carries a `Payment-Receipt`.
   */
  paymentRequired: string;
  /** A well-formed key the service does not know: REST answers 401 "invalid". */
  invalid: string;
}

/** Requests allowed per UTC day, per key (REST and MCP token tier) or per emulator (MCP anonymous). */
export interface RateLimits {
  /** REST requests per key per UTC day. */
  rest: number;
  /** MCP `tools/call` requests per valid key per UTC day. */
  mcpToken: number;
  /** MCP `tools/call` requests without a valid key, per UTC day (shared by all anonymous callers). */
  mcpAnonymous: number;
}

/** How the MCP endpoint answers: an SSE stream (the SDK default) or one JSON object. */
export type McpResponseMode = 'sse' | 'json';

/** A clock; tests pass their own to move time (token expiry, UTC-day resets). */
export type Clock = () => Date;

/** The demo keys the CLI prints; not secrets (they only open this emulator). */
export const DEFAULT_KEYS: EmulatorKeys = {
  valid: 'ck_test_valid_0000000000000000',
  otherUser: 'ck_test_other_0000000000000000',
  creditsExhausted: 'ck_test_nocredits_000000000000',
  paymentRequired: 'ck_test_payment_00000000000000',
  invalid: 'ck_test_invalid_00000000000000',
};

/** High enough that tests and demos never meet them unless they lower them. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  rest: 100_000,
  mcpToken: 50_000,
  mcpAnonymous: 5_000,
};

/** The user id each working key belongs to (the `user_id` of its collections). */
export const USER_IDS = { valid: 'usr_demo', otherUser: 'usr_other' } as const;

/** Options of `createEmulator` and `startEmulator`. */
export interface EmulatorOptions {
  /** Seed of the generated catalog (default 42). The same seed gives the same data. */
  seed?: number;
  /** MCP answers as an SSE stream (default) or as one JSON object. */
  mcpResponse?: McpResponseMode;
  /** Requests per UTC day; lower them to reach 429 quickly in tests. */
  rateLimits?: Partial<RateLimits>;
  /** Faults active from the start (default none); change them with `faults.set()`. */
  faults?: FaultRule | FaultRule[];
  /** The clock (default the system clock): token expiry, UTC-day resets, timestamps. */
  now?: Clock;
  /** Replace any of the demo keys. */
  keys?: Partial<EmulatorKeys>;
  /**
   * Longest life of a minted conversation token, in seconds (default none: the requested
   * `ttl_seconds`, 60..7200). A service may grant less than asked; set a few seconds to
   * test that clients follow `expires_at` and refresh in time.
   */
  maxTokenTtlSeconds?: number;
  /** Price, currency, challenge lifetime and HMAC secret of the machine-payment challenges. */
  payment?: EmulatorPaymentOptions;
  /**
   * Whether the MCP endpoint offers `lookup_catalog` and `get_product` besides
   * `search_catalog` (default true). `false` serves the contract's search-only endpoint:
   * they are neither listed nor callable, to test a client's fallback.
   */
  lookupTools?: boolean;
}
