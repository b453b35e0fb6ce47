// Red-team findings on secret redaction (wave 4c, issue 33 step 2): each test here failed
// before its fix (F1 HTML5 names, F2 raw answer in a cause, F3 non-ASCII key, F5 long
// secrets, F6 names that are not ASCII). docs/SECURITY.md lists them.
import net from 'node:net';
import { inspect } from 'node:util';
import { encodeHTML } from 'entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../src/http/redact.js';
import { CatalogClient, CatalogError, ConfigurationError, ConnectionError } from '../src/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { redactSecrets } from './support/redact-text.js';

const KEY = 'ck_live_Ab3dEf9hIjKlMn0pQr';

describe('F1: every HTML5 name an encoder writes for ASCII punctuation', () => {
  it.each([
    ['vert', '|'],
    ['VerticalLine', '|'],
    ['lbrack', '['],
    ['rbrack', ']'],
    ['lbrace', '{'],
    ['rbrace', '}'],
    ['midast', '*'],
    ['UnderBar', '_'],
    ['DiacriticalGrave', '`'],
    ['Hat', '^'],
    ['QUOT', '"'],
  ])('&%s; reads as %s', (name, char) => {
    expect(redactSecrets(`x ab&${name};cdef y`, [`ab${char}cdef`])).toBe('x [redacted] y');
  });

  it('a Sanctum-shaped key through entities.encodeHTML is redacted', () => {
    const key = '7|Ab3dEf9hIjKlMn0pQrStUv';
    expect(encodeHTML(key)).toContain('&vert;');
    expect(createRedactor(key)(`invalid key ${encodeHTML(key)}`)).toBe('invalid key [redacted]');
  });
});

describe('F6: names that are not ASCII in HTML5 stay as written', () => {
  it.each([
    ['hyphen', '-'], // U+2010
    ['tilde', '~'], // U+02DC
    ['Vert', '|'], // U+2016
    ['Colon', ':'], // U+2237
    ['hat', '^'], // no such name
  ])('&%s; is not read as %s', (name, char) => {
    const text = `x ab&${name};cdef y`;
    expect(redactSecrets(text, [`ab${char}cdef`])).toBe(text);
  });
});

describe('F5: a secret past any header limit', () => {
  it('redaction with a 100,000-character secret neither throws nor misses', () => {
    const secret = `k${'e'.repeat(100_000)}`;
    const redact = createRedactor(secret);
    expect(redact('hello')).toBe('hello');
    expect(redact(`key ${secret}`)).toBe('key [redacted]');
  });

  it('an API key longer than 16 KiB is a ConfigurationError naming apiKey', () => {
    const build = () => new CatalogClient({ apiKey: `ck_${'e'.repeat(16_400)}` });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/option apiKey is longer than 16384 characters/);
  });
});

describe('F3: a key with a non-ASCII character', () => {
  it.each([
    ['Latin-1', 'ck_live_clé_Ab3dEf9hIjKlMn0p'],
    ['beyond Latin-1', 'ck_live_cl€_Ab3dEf9hIjKlMn0p'],
    ['a control character', 'ck_live_cl\u0007_Ab3dEf9hIjKlMn0p'],
  ])('(%s) is refused at construction, naming apiKey, not echoing it', (_name, apiKey) => {
    let error: unknown;
    try {
      new CatalogClient({ apiKey });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toMatch(/option apiKey must be printable ASCII/);
    expect(inspect(error, { showHidden: true })).not.toContain('Ab3dEf9hIjKlMn0p');
  });
});

describe('F2: a malformed answer echoing the key never reaches an error', () => {
  /** Answers: the key it received echoed where undici's parser keeps it (`HTTPParserError.data`). */
  const ANSWERS: Record<string, (key: string) => string> = {
    'a folded header': (k) => `HTTP/1.1 502 Bad Gateway\r\nX-Auth: Bearer\r\n ${k}\r\n\r\n`,
    'a header name': (k) => `HTTP/1.1 400 Bad Request\r\nX Echo ${k}: 1\r\n\r\n`,
    'the status line': (k) => `HTTP/1.1 4x0 ${k}\r\nContent-Length: 2\r\n\r\n{}`,
    'a broken chunk': (k) =>
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"de"\r\nzz ${k}\r\n`,
  };
  let answer = ANSWERS['a folded header'] as (key: string) => string;
  let server: net.Server;
  let origin = '';
  beforeAll(async () => {
    server = net.createServer((socket) => {
      let head = '';
      socket.on('error', () => undefined);
      socket.on('data', (data) => {
        head += data.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.end(answer(/x-api-key: (.*)\r\n/i.exec(head)?.[1] ?? 'no key'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => server.close());

  /** Every way an error is printed or sent: loggers use inspect, with and without hidden members. */
  const views = (error: unknown) => [
    String(error),
    String((error as Error).stack),
    inspect(error),
    inspect(error, { showHidden: true, depth: 20 }),
    JSON.stringify(error) ?? '',
    JSON.stringify((error as Error).cause) ?? '',
  ];
  const options = () => ({ apiKey: KEY, baseUrl: origin, mcpUrl: origin, maxRetries: 0 });

  it.each(Object.keys(ANSWERS))(
    'echoed in %s: the client error holds a plain cause',
    async (name) => {
      answer = ANSWERS[name] as (key: string) => string;
      const error = await new CatalogClient(options()).websites
        .search({ query: 'shoes' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CatalogError);
      for (const view of views(error)) expect(view).not.toContain('Ab3dEf9hIjKlMn0pQr');
      // Node 22's fetch (undici 6) reads a folded header or a header name with a space as an
      // answer, so the call ends with its status (the redactor covers header names and
      // values); newer ones refuse the answer, and the ConnectionError's cause is a copy
      // (name, code, message), never the fetch error itself.
      if (!(error instanceof ConnectionError)) return;
      const cause = (error as Error).cause as Record<string, unknown>;
      expect(cause).not.toBeInstanceOf(Error);
      expect(
        Object.keys(cause).every((k) => ['name', 'code', 'message', 'cause'].includes(k)),
      ).toBe(true);
    },
  );

  it('echoed through the search tools: their errors and model text stay clean', async () => {
    answer = ANSWERS['a folded header'] as (key: string) => string;
    const tools = createCatalogToolList({ clientOptions: options() }) as AnyCatalogTool[];
    const inputs: Record<string, unknown> = {
      search_catalog: { query: 'x', limit: null, cursor: null, placements: null },
      search_websites: { query: 'x', limit: null, category_ids: null, country: null },
    };
    let checked = 0;
    for (const tool of tools) {
      const input = inputs[tool.originalName];
      if (input === undefined) continue;
      const error: unknown = await tool.execute(input as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      const model = JSON.stringify(tool.errorToModelOutput(error));
      for (const view of [...views(error), model]) expect(view).not.toContain('Ab3dEf9hIjKlMn0pQr');
      checked++;
    }
    expect(checked).toBe(2);
  });
});
