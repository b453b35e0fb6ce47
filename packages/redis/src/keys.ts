import { ConfigurationError } from '@catalogkit/core';

/*
 * Redis key names. Data and locks live in disjoint namespaces under the prefix, so no data
 * key (which core builds from model input, e.g. a collection id) can name a lock:
 *
 * - a lock is `<prefix>~lock:<key>`;
 * - a data key is `<prefix><key>`, except that a key starting with `~` gets a second `~`
 *   (`<prefix>~~...`), so after the prefix a data key either does not start with `~` or
 *   starts with `~~`, and a lock always starts with `~l`.
 *
 * Every data key that does not start with `~` keeps the name it had before locks moved, so
 * existing sessions and update memory survive the upgrade.
 */
const MARK = '~';
const LOCK_MARK = `${MARK}lock:`;

/** A lone UTF-16 surrogate: Redis stores text as UTF-8, where it becomes U+FFFD. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The Redis key of the entry `key`. */
export function dataKey(prefix: string, key: string): string {
  return key.startsWith(MARK) ? `${prefix}${MARK}${key}` : `${prefix}${key}`;
}

/** The Redis key of `key`'s lock: never the name of a data key. */
export function lockKey(prefix: string, key: string): string {
  return `${prefix}${LOCK_MARK}${key}`;
}

/**
 * Refuses text Redis cannot keep exactly: a lone surrogate is written as U+FFFD, so two
 * different keys (`"\ud800"`, `"\udfff"`) would name one Redis key, and a value would not
 * read back as written.
 * @throws ConfigurationError naming `field`.
 */
export function checkText(field: string, text: string): void {
  if (typeof text !== 'string') {
    throw new ConfigurationError(`Redis store: ${field} must be a string, got ${typeof text}`);
  }
  if (LONE_SURROGATE.test(text)) {
    throw new ConfigurationError(
      `Redis store: ${field} holds a lone UTF-16 surrogate, which Redis cannot store exactly`,
    );
  }
}
