import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseRetryAfter,
  retryDelayMs,
} from '../src/http/retry.js';
import {
  ApiError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from '../src/index.js';

const init = (status: number, headers: Record<string, string> = {}) => ({
  status,
  detail: undefined,
  headers,
  message: `HTTP ${status}`,
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2030, 0, 1, 0, 0, 0);

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toEqual({
      retryAfterMs: 120_000,
      resetsAt: new Date(now + 120_000),
    });
  });

  it('reads an HTTP-date', () => {
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toEqual({
      retryAfterMs: 30_000,
      resetsAt: new Date(now + 30_000),
    });
  });

  it('treats a past date as now, and unreadable values as absent', () => {
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)?.retryAfterMs).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('isRetryable', () => {
  const refused = new ConnectionError('refused', { requestSent: false });
  const dropped = new ConnectionError('reset', { requestSent: true });

  it('idempotent calls retry connection errors, 408, 429 and 5xx only', () => {
    for (const error of [
      refused,
      dropped,
      new ApiError(init(408)),
      new RateLimitError(init(429)),
      new ServerError(init(500)),
    ]) {
      expect(isRetryable(error, 'idempotent')).toBe(true);
    }
    expect(isRetryable(new NotFoundError(init(404)), 'idempotent')).toBe(false);
    expect(isRetryable(new Error('bug'), 'idempotent')).toBe(false);
  });

  it('once-only calls retry only a refused connection and a 429', () => {
    expect(isRetryable(refused, 'once')).toBe(true);
    expect(isRetryable(new RateLimitError(init(429)), 'once')).toBe(true);
    expect(isRetryable(dropped, 'once')).toBe(false);
    expect(isRetryable(new ServerError(init(503)), 'once')).toBe(false);
    expect(isRetryable(new ApiError(init(408)), 'once')).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('uses Retry-After when the error carries it', () => {
    expect(
      retryDelayMs(
        new RateLimitError({ ...init(429), retryAfterMs: 4_000 }),
        0,
        DEFAULT_RETRY_POLICY,
      ),
    ).toBe(4_000);
    expect(
      retryDelayMs(new ServerError(init(503, { 'retry-after': '3' })), 0, DEFAULT_RETRY_POLICY),
    ).toBe(3_000);
  });

  it('otherwise draws full jitter under an exponential, capped ceiling', () => {
    const top = { ...DEFAULT_RETRY_POLICY, random: () => 0.999_999 };
    const bottom = { ...DEFAULT_RETRY_POLICY, random: () => 0 };
    const error = new ServerError(init(500));
    expect([0, 1, 2, 3, 4, 10].map((attempt) => retryDelayMs(error, attempt, top))).toEqual([
      499, 999, 1_999, 3_999, 7_999, 7_999,
    ]);
    expect(retryDelayMs(error, 3, bottom)).toBe(0);
  });
});
