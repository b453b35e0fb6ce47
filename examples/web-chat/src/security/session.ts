import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The session cookie's name. */
export const SESSION_COOKIE = 'webchat_session';
/** How long a browser keeps the session cookie, in seconds (12 hours). */
export const SESSION_MAX_AGE_S = 12 * 60 * 60;
/** Session ids are 128 random bits, base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Anonymous shopper sessions: a random id in a signed, HttpOnly, SameSite=Strict cookie.
 * Signed, so a client cannot pick another shopper's id; stateless, so the server keeps no
 * memory per session. A production app replaces this with its real sign-in.
 */
export class Sessions {
  readonly #secret: Buffer;

  constructor(secret: string | Buffer) {
    this.#secret = Buffer.from(secret);
  }

  #mac(id: string): string {
    return createHmac('sha256', this.#secret)
      .update(`webchat-session-v1\n${id}`)
      .digest('base64url');
  }

  /** The session id of a cookie value, or undefined when it is missing or not ours. */
  read(cookie: string | undefined): string | undefined {
    const [id, mac, ...rest] = (cookie ?? '').split('.');
    if (id === undefined || mac === undefined || rest.length > 0 || !SESSION_ID.test(id)) {
      return undefined;
    }
    const expected = Buffer.from(this.#mac(id));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }

  /** A new session id. */
  create(): string {
    return randomBytes(16).toString('base64url');
  }

  /** The `Set-Cookie` value for a session; `secure` when the page is served over HTTPS. */
  cookie(id: string, secure: boolean): string {
    const attributes = [`Max-Age=${SESSION_MAX_AGE_S}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
    if (secure) attributes.push('Secure');
    return [`${SESSION_COOKIE}=${id}.${this.#mac(id)}`, ...attributes].join('; ');
  }
}
