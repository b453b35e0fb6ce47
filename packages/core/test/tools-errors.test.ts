import { describe, expect, it } from 'vitest';
import {
  AbortError,
  AuthenticationError,
  CatalogToolError,
  ConfigurationError,
  ConnectionError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../src/errors/index.js';
import { errorTextForModel } from '../src/tools/error-text.js';

const base = { headers: {}, message: 'summary' };

describe('errorTextForModel', () => {
  it('names each invalid field, with the tool’s own field names', () => {
    const error = new RequestValidationError('catalog search', [
      { path: 'catalog.query', message: 'must not be empty' },
      { path: 'catalog.pagination.limit', message: 'must be at least 1' },
    ]);
    const text = errorTextForModel(error, (path) => path.replace(/^catalog\.(pagination\.)?/, ''));
    expect(text).toBe(
      'Invalid arguments: query: must not be empty; limit: must be at least 1. Fix these fields and call the tool again.',
    );
  });

  it('names the fields a 422 refused, without the FastAPI location prefix', () => {
    const error = new ValidationError({
      ...base,
      status: 422,
      detail: [],
      issues: [
        { loc: ['query', 'category_ids', 0], msg: 'unknown category "zzz"', type: 'value_error' },
      ],
    });
    expect(errorTextForModel(error)).toBe(
      'The catalog service refused the input: category_ids.0: unknown category "zzz". Fix these fields and try again.',
    );
  });

  it('says the daily rate limit is reached and when it resets', () => {
    const resetsAt = new Date('2030-01-02T00:00:00.000Z');
    const error = new RateLimitError({
      ...base,
      status: 429,
      detail: undefined,
      retryAfterMs: 3 * 3_600_000,
      resetsAt,
    });
    const text = errorTextForModel(error);
    expect(text).toContain('Rate limit of the catalog service reached');
    expect(text).toContain('It resets at 2030-01-02T00:00Z (in 3 h).');
    expect(text).toContain('Do not call this tool again before then');
  });

  it('says when limits reset even without Retry-After', () => {
    const error = new RateLimitError({ ...base, status: 429, detail: undefined });
    expect(errorTextForModel(error)).toContain('reset at the start of the next UTC day');
  });

  it('tells used-up credits from a payment challenge', () => {
    const credits = new PaymentRequiredError({
      ...base,
      status: 402,
      detail: 'add a card',
      challenges: [],
    });
    expect(errorTextForModel(credits)).toMatch(
      /used up its free credits; the account owner must add a payment method/,
    );
    const challenge = new PaymentRequiredError({
      ...base,
      status: 402,
      detail: 'pay',
      challenges: [{ scheme: 'Payment', params: { id: 'x' } }],
    });
    expect(errorTextForModel(challenge)).toMatch(
      /asks for a payment before answering; the application must approve the payment/,
    );
    const priced = new PaymentRequiredError({
      ...base,
      status: 402,
      detail: 'pay',
      challenges: [
        {
          scheme: 'Payment',
          params: {
            id: 'ch_secretish',
            realm: 'internal realm',
            method: 'test',
            intent: 'charge',
            request: Buffer.from('{"amount":"125","currency":"eur"}').toString('base64url'),
          },
        },
      ],
    });
    const text = errorTextForModel(priced) ?? '';
    expect(text).toMatch(/asks for a payment of 1\.25 EUR before answering/);
    for (const internal of ['ch_secretish', 'internal realm', 'charge']) {
      expect(text).not.toContain(internal);
    }
  });

  it('says an id is unknown, with the service’s detail', () => {
    const error = new NotFoundError({
      ...base,
      status: 404,
      detail: 'Collection col_x not found.',
    });
    expect(errorTextForModel(error)).toBe(
      'Not found: Collection col_x not found. Check the ids you gave; use ids from earlier tool results only.',
    );
  });

  it('words the other failures the model can act on', () => {
    const auth = new AuthenticationError({
      ...base,
      status: 401,
      detail: 'Invalid API key',
      reason: 'invalid',
    });
    expect(errorTextForModel(auth)).toMatch(/API key is invalid; the application owner/);
    expect(errorTextForModel(new ServerError({ ...base, status: 503, detail: 'down' }))).toMatch(
      /HTTP 503/,
    );
    expect(errorTextForModel(new TimeoutError(100, 'x'))).toMatch(/could not be reached/);
    expect(errorTextForModel(new ConnectionError('refused', { requestSent: false }))).toMatch(
      /could not be reached/,
    );
    expect(errorTextForModel(new ProtocolError('html'))).toMatch(/could not be read/);
    expect(errorTextForModel(new CatalogToolError(['query too vague'], []))).toBe(
      'The catalog search failed: query too vague.',
    );
  });

  it('leaves programming errors, cancellations and unknown errors to the caller', () => {
    expect(errorTextForModel(new ConfigurationError('no key'))).toBeUndefined();
    expect(errorTextForModel(new AbortError('x'))).toBeUndefined();
    expect(errorTextForModel(new TypeError('bug'))).toBeUndefined();
  });
});
