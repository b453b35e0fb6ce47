import { StoreUnavailableError } from '@catalogkit/core';
import { describe, expect, it } from 'vitest';
import { secretForms, unavailable, wrongAnswer } from '../src/unavailable.js';
import { everyTextOf, expectNoRunOf } from './support/store-suite.js';

/*
 * The real clients' failures are exercised against redis-server in the shared suite; these
 * cover what a client error may carry that the servers here do not make them say.
 */
const password = 'p@ss:w/rd%+é-Hunter2Hunter2';
const token = 'AXsecretUpstashToken0123456789abcdef';
const secrets = [...secretForms(password), ...secretForms(token)];
const read = { operation: 'GET', sent: [], secrets, write: false };

/** An error of the class a client throws, as the client builds it. */
function clientError(name: string, message: string, extra: object = {}): Error {
  const error = Object.assign(new Error(message), extra);
  Object.defineProperty(error, 'name', { value: name });
  return error;
}

describe("a client's own failure keeps its reason, without the command or a secret", () => {
  it('keeps the name, the code and the reason; drops the command, keys, values and credentials', () => {
    const original = clientError(
      'MaxRetriesPerRequestError',
      'ERR failed for key shop:chat:secret-key value tok_live_1234 at redis://user:hunter22@cache:6379 with Bearer abc.def, command was: ["SET","shop:chat:secret-key","tok_live_1234"]\nsecond line tok_live_1234',
      { code: 'ECONNRESET', command: { name: 'set', args: ['shop:chat:secret-key'] } },
    );
    const error = unavailable('redis (ioredis)', original, {
      operation: 'SET',
      sent: ['shop:chat:secret-key', 'tok_live_1234', 'PX'],
      secrets,
      write: true,
    });
    expect(StoreUnavailableError.is(error)).toBe(true);
    expect(error.store).toBe('redis (ioredis)');
    expect(error.message).toBe(
      'redis (ioredis): SET failed: MaxRetriesPerRequestError: ERR failed for key [redacted] value [redacted] at redis://[redacted]@cache:6379 with Bearer [redacted] (ECONNRESET); it may have been applied',
    );
    expect(error.cause).toMatchObject({ name: 'MaxRetriesPerRequestError', code: 'ECONNRESET' });
    const text = everyTextOf(error);
    for (const secret of ['secret-key', 'tok_live_1234', 'hunter22', 'abc.def', 'second line']) {
      expect(text).not.toContain(secret);
    }
  });

  it('hides any run of 12 characters of the password or token, as is, URL-encoded, JSON-escaped or base64', () => {
    const echoes = [
      `connect failed for ${password.slice(3, 20)}`,
      `auth=${encodeURIComponent(password)}`,
      `auth=${encodeURIComponent(password).toLowerCase()}`,
      `header "${JSON.stringify(password).slice(1, -1)}"`,
      `basic ${Buffer.from(password, 'utf8').toString('base64')}`,
      `token ${token.slice(0, 14)}...${token.slice(-13)}`,
    ];
    for (const echo of echoes) {
      const error = unavailable('upstash redis', new TypeError(echo), read);
      expect(error.message).toMatch(/^upstash redis: GET failed: TypeError: \S/);
      expectNoRunOf(everyTextOf(error), [
        token,
        password,
        encodeURIComponent(password),
        Buffer.from(password, 'utf8').toString('base64'),
      ]);
    }
  });

  it('a write the client says it never sent is not said to be maybe applied', () => {
    const write = { ...read, operation: 'SET', write: true };
    class ClientOfflineError extends Error {}
    const offline = new ClientOfflineError('The client is offline');
    expect(unavailable('redis (node-redis)', offline, write).message).toBe(
      'redis (node-redis): SET failed: ClientOfflineError: The client is offline',
    );
    const unqueued = new Error("Stream isn't writeable and enableOfflineQueue options is false");
    expect(unavailable('redis (ioredis)', unqueued, write).message).not.toMatch(/may have/);
    expect(unavailable('redis (ioredis)', new Error('Connection is closed.'), write).message).toBe(
      'redis (ioredis): SET failed: Error: Connection is closed.; it may have been applied',
    );
  });

  it('bounds the reason it keeps, and takes anything thrown', () => {
    const long = unavailable('upstash redis', new Error('x'.repeat(100_000)), read);
    expect(long.message.length).toBeLessThan(300);
    expect(unavailable('upstash redis', 'plain string', read).message).toBe(
      'upstash redis: GET failed: Error: plain string',
    );
    const own = new StoreUnavailableError('upstash redis', 'GET failed: no answer');
    expect(unavailable('upstash redis', own, read)).toBe(own);
  });
});

describe('text the server sent is never shown: only the Redis error code it starts with', () => {
  // The class names the clients give their server errors: ioredis, node-redis, Upstash.
  const servers = ['ReplyError', 'ErrorReply', 'SimpleError', 'UpstashError'];

  it.each(servers)('%s: the code word only, and no "may have been applied" (refused)', (name) => {
    const echo = `ERR unknown command 'SET', with args beginning with: 'shop:k' '${token.slice(0, 20)}`;
    const error = unavailable('redis (node-redis)', clientError(name, echo), {
      ...read,
      operation: 'SET',
      write: true,
    });
    expect(error.message).toBe(`redis (node-redis): SET failed: ${name}: ERR`);
    expectNoRunOf(everyTextOf(error), [token, 'shop:k']);
  });

  it('a reply whose first word is not an error code, and a body that is not JSON, show only the class', () => {
    const raw = clientError('UpstashError', `invalid token ${token}`);
    expect(unavailable('upstash redis', raw, read).message).toBe(
      'upstash redis: GET failed: UpstashError',
    );
    const html = clientError(
      'UpstashJSONParseError',
      `Unable to parse response body: <html>bad gateway for token ${token}</html>`,
    );
    expect(unavailable('upstash redis', html, read).message).toBe(
      'upstash redis: GET failed: UpstashJSONParseError',
    );
    // node-redis leaves `name` as "Error": the class is read from the constructor.
    class SimpleError extends Error {}
    expect(unavailable('redis (node-redis)', new SimpleError('WRONGTYPE x'), read).message).toBe(
      'redis (node-redis): GET failed: SimpleError: WRONGTYPE',
    );
  });

  it('a code word that is part of a secret is not shown either', () => {
    const error = unavailable(
      'upstash redis',
      clientError('UpstashError', 'ABCDEFGHIJKLMNOP rest'),
      { ...read, secrets: secretForms('xxABCDEFGHIJKLMNOPxx') },
    );
    expect(error.message).toBe('upstash redis: GET failed: UpstashError');
  });
});

describe('answers no command could give', () => {
  it('a wrong answer names its shape, never its value; to a write, it may have been applied', () => {
    expect(wrongAnswer('redis (node-redis)', 'GET', 'null', 'tok_live_1234').message).toBe(
      'redis (node-redis): GET answered wrongly: expected null, got string',
    );
    expect(wrongAnswer('redis (node-redis)', 'SET', '"OK"', 1, true).message).toBe(
      'redis (node-redis): SET answered wrongly: expected "OK", got number; it may have been applied',
    );
  });
});
