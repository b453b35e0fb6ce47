import { describe, expect, it, vi } from 'vitest';
import * as errorsModule from '../src/errors/index.js';

type Errors = typeof errorsModule;

/** A second, separate copy of the errors module, as a duplicated dependency would load. */
async function secondCopy(): Promise<Errors> {
  vi.resetModules();
  return (await import('../src/errors/index.js')) as Errors;
}

const api = { status: 404, detail: 'gone', headers: {}, message: 'gone' };

/** One instance of every error class, built from `copy`. */
function everyError(copy: Errors) {
  return {
    CatalogError: new copy.CatalogError('custom', 'base'),
    RequestValidationError: new copy.RequestValidationError('x', [{ path: 'a', message: 'b' }]),
    ConfigurationError: new copy.ConfigurationError('no key'),
    ApiError: new copy.ApiError({ ...api, status: 418 }),
    AuthenticationError: new copy.AuthenticationError({ ...api, status: 401, reason: 'invalid' }),
    PaymentRequiredError: new copy.PaymentRequiredError({ ...api, status: 402, challenges: [] }),
    NotFoundError: new copy.NotFoundError(api),
    ValidationError: new copy.ValidationError({ ...api, status: 422, issues: [] }),
    RateLimitError: new copy.RateLimitError({ ...api, status: 429 }),
    ServerError: new copy.ServerError({ ...api, status: 500 }),
    ConnectionError: new copy.ConnectionError('reset', { requestSent: true }),
    TimeoutError: new copy.TimeoutError(10, 'op'),
    AbortError: new copy.AbortError('op'),
    ProtocolError: new copy.ProtocolError('html'),
    ResponseTooLargeError: new copy.ResponseTooLargeError('op', 'maxResponseBytes', 10),
    McpError: new copy.McpError(-32602, 'bad', null),
    CatalogToolError: new copy.CatalogToolError(['no'], []),
    TokenMintError: new copy.TokenMintError('mint', { attempt: 1, retryAt: 0 }),
    SessionLockTimeoutError: new copy.SessionLockTimeoutError('k', 10),
  };
}

type Name = keyof ReturnType<typeof everyError>;

/** The classes each error is an instance of (itself and its ancestors). */
const LINEAGE: Record<Name, Name[]> = {
  CatalogError: ['CatalogError'],
  RequestValidationError: ['RequestValidationError', 'CatalogError'],
  ConfigurationError: ['ConfigurationError', 'CatalogError'],
  ApiError: ['ApiError', 'CatalogError'],
  AuthenticationError: ['AuthenticationError', 'ApiError', 'CatalogError'],
  PaymentRequiredError: ['PaymentRequiredError', 'ApiError', 'CatalogError'],
  NotFoundError: ['NotFoundError', 'ApiError', 'CatalogError'],
  ValidationError: ['ValidationError', 'ApiError', 'CatalogError'],
  RateLimitError: ['RateLimitError', 'ApiError', 'CatalogError'],
  ServerError: ['ServerError', 'ApiError', 'CatalogError'],
  ConnectionError: ['ConnectionError', 'CatalogError'],
  TimeoutError: ['TimeoutError', 'CatalogError'],
  AbortError: ['AbortError', 'CatalogError'],
  ProtocolError: ['ProtocolError', 'CatalogError'],
  ResponseTooLargeError: ['ResponseTooLargeError', 'ProtocolError', 'CatalogError'],
  McpError: ['McpError', 'CatalogError'],
  CatalogToolError: ['CatalogToolError', 'CatalogError'],
  TokenMintError: ['TokenMintError', 'CatalogError'],
  SessionLockTimeoutError: ['SessionLockTimeoutError', 'CatalogError'],
};

describe('static is() works across two copies of core', () => {
  it('the second copy really is another copy: instanceof fails across them', async () => {
    const other = await secondCopy();
    expect(other.NotFoundError).not.toBe(errorsModule.NotFoundError);
    expect(new other.NotFoundError(api)).not.toBeInstanceOf(errorsModule.NotFoundError);
  });

  it('every class recognises its own instances and its subclasses, from either copy, and nothing else', async () => {
    const other = await secondCopy();
    for (const [from, to] of [
      [errorsModule, other],
      [other, errorsModule],
      [errorsModule, errorsModule],
    ] as const) {
      const errors = everyError(from);
      for (const [name, error] of Object.entries(errors) as [Name, Error][]) {
        for (const className of Object.keys(LINEAGE) as Name[]) {
          const expected = LINEAGE[name].includes(className);
          expect(to[className].is(error), `${className}.is(${name})`).toBe(expected);
        }
      }
    }
  });

  it('the code stays beside the brand, and plain look-alikes are not taken for errors', async () => {
    const other = await secondCopy();
    expect(new other.RateLimitError({ ...api, status: 429 }).code).toBe('rate_limited');
    const lookAlike = Object.assign(new Error('x'), { code: 'not_found', status: 404 });
    expect(errorsModule.NotFoundError.is(lookAlike)).toBe(false);
    expect(errorsModule.CatalogError.is({ code: 'not_found' })).toBe(false);
    expect(errorsModule.CatalogError.is(null)).toBe(false);
    expect(errorsModule.CatalogError.is('not_found')).toBe(false);
  });

  it('the brand is a non-enumerable Symbol.for property, so JSON and spreads skip it', () => {
    const error = new errorsModule.NotFoundError(api);
    const brand = Symbol.for('@catalogkit/core.error-kinds');
    const descriptor = Object.getOwnPropertyDescriptor(error, brand);
    expect(descriptor?.value).toEqual(['NotFoundError', 'ApiError', 'CatalogError']);
    expect(descriptor?.enumerable).toBe(false);
    expect(Object.getOwnPropertySymbols({ ...error })).toEqual([]);
  });

  it('is() narrows the type', async () => {
    const other = await secondCopy();
    const caught: unknown = new other.RateLimitError({ ...api, status: 429, retryAfterMs: 5 });
    if (!errorsModule.RateLimitError.is(caught)) throw new Error('expected a RateLimitError');
    expect(caught.retryAfterMs).toBe(5);
  });
});
