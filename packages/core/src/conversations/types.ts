/**
 * A moment as an application may give it: a `Date`, an ISO 8601 / HTTP-date string, or
 * epoch milliseconds.
 */
export type InstantInput = Date | string | number;

/** What a mint function returns: one freshly minted conversation token. */
export interface MintedToken {
  /** The bearer token for the conversation's turns. */
  token: string;
  /** When the token stops working, on the server's clock. */
  expiresAt: InstantInput;
  /**
   * The server's own time when it answered (usually the `Date` response header). When
   * given, the token's remaining life is computed on the server's clock, so a local
   * clock that is minutes off still refreshes in time.
   */
  serverDate?: InstantInput;
}

/** Context handed to a mint function. */
export interface MintContext {
  /** Aborted when the mint times out or the token manager is closed. */
  signal: AbortSignal;
}

/**
 * Mints one conversation token. Supplied by the application, because the contract does
 * not show how tokens are minted: on a server, call the service with the API key (see
 * `createHttpTokenMinter`); in a browser, call your own backend.
 */
export type TokenMinter = (context: MintContext) => Promise<MintedToken>;

/** Per-call options. */
export interface CallOptions {
  /** Cancels this caller's wait; a mint shared with other callers keeps going. */
  signal?: AbortSignal;
}
