import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/index.js';
import { errorTextForModel } from '../src/tools/error-text.js';
import { base64Token, ECHO_FORMS, leaks } from './support/echo-forms.js';
import { rpcIdOf, toolsCallAnswer } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// Retired (wave 4i, docs/SECURITY.md "Payments and secret redaction"), with the connection's
// credential set (SentSecrets): "a credential sent again is the newest, kept when older ones are
// dropped", "redacts each credential from its add on, and the earlier ones, across merges", "a
// paid call at 256 live credentials costs far less than rebuilding them all", "keeps at most
// 256 Ki characters of credentials, oldest dropped first (red team 4d F1)". A credential is now
// a secret of the call that sent it: the tests below hold each call's answers to it.

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CHALLENGE = `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64url({ amount: '25', currency: 'usd' })}"`;

const newToken = (bytes = 451) => base64Token(bytes);

/** Each in-scope form an accidental echo takes, as a real encoder writes it. */
const FORMS = ECHO_FORMS;
const echoes = (token: string) =>
  Object.fromEntries(Object.entries(FORMS).map(([name, form]) => [name, form(token)]));

/** Everything an error shows: String, stack, inspect (hidden fields, cause), JSON, model text. */
function shown(error: unknown): string {
  const value = error as Error & Record<string, unknown>;
  return [
    String(value),
    value.stack,
    inspect(value, { depth: 10, showHidden: true }),
    JSON.stringify(value),
    JSON.stringify({ detail: value.detail, headers: value.headers, cause: value.cause ?? null }),
    errorTextForModel(error),
  ].join('\n');
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** The token of a paid request, or undefined (then the server asks for payment). */
const paidToken = (authorization: string | undefined) =>
  authorization?.startsWith('Payment ') ? authorization.slice('Payment '.length) : undefined;

function paidClient(pay: () => string, maxRetries = 0) {
  return new CatalogClient({
    apiKey: KEY,
    baseUrl: server.origin,
    maxRetries,
    payment: { pay: () => `Payment ${pay()}` },
  });
}
const echoRequest = {
  operation: 'echo',
  method: 'GET',
  path: '/v1/echo',
  retry: 'idempotent',
} as const;

describe('a credential is a secret of the call that sent it', () => {
  it('its 2xx answer echoing it in each form, in values and member names, is redacted', async () => {
    const token = newToken();
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined) {
        return sendJson(response, 402, { detail: 'pay' }, { 'www-authenticate': CHALLENGE });
      }
      sendJson(response, 200, { echoes: echoes(paid), [`by ${paid}`]: 1, note: 'kept' });
    });
    const answer = await paidClient(() => token).request(echoRequest);
    const text = JSON.stringify(answer.data);
    expect(leaks(text, token)).toEqual([]);
    expect(text).toContain('"by [redacted]":1');
    expect(answer.data).toMatchObject({ note: 'kept', echoes: { raw: '[redacted]' } });
  });

  it('its error echoing it in each form, in the detail, a header name and header values, is redacted', async () => {
    const token = newToken();
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined) {
        return sendJson(response, 402, { detail: 'pay' }, { 'www-authenticate': CHALLENGE });
      }
      const forms = echoes(paid);
      const headers = Object.fromEntries(
        Object.entries(forms)
          .filter(([name]) => !name.startsWith('json'))
          .map(([name, form]) => [`x-echo-${name}`, form]),
      );
      headers[`x-cred-${encodeURIComponent(paid)}`] = 'named';
      const detail = Object.entries(forms)
        .map(([name, form]) => `${name}=${form}`)
        .join(' | ');
      sendJson(response, 409, { detail: `refused: ${detail}` }, headers);
    });
    const error = await paidClient(() => token)
      .request(echoRequest)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 409 });
    const text = shown(error);
    expect(leaks(text, token)).toEqual([]);
    expect(text).toContain('x-cred-[redacted]');
    expect(text).toContain('raw=[redacted]');
  });

  it('a call pays once: the 402 of its retry, echoing the credential, is redacted too', async () => {
    const token = newToken();
    const tokens: string[] = [];
    let attempt = 0;
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      // The paid resend fails and is retried; the retry is asked to pay again and quotes
      // the credential the call already spent.
      if (paid !== undefined)
        return sendJson(response, 503, { detail: `busy ${paid}` }, { 'retry-after': '0' });
      const quoted = attempt++ === 0 ? 'pay' : `still unpaid: ${JSON.stringify(echoes(token))}`;
      sendJson(response, 402, { detail: quoted }, { 'www-authenticate': CHALLENGE });
    });
    const client = paidClient(() => {
      tokens.push(token);
      return token;
    }, 1);
    const error = await client.request(echoRequest).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 402 });
    expect(tokens).toHaveLength(1); // not asked again (PaymentStep: once per call)
    expect(server.requests).toHaveLength(3);
    expect(leaks(shown(error), token)).toEqual([]);
    expect(shown(error)).toContain('[redacted]');
  });

  it('6 concurrent paid calls, answered once all 6 paid, each echoing its own credential: none leaks', async () => {
    const held: (() => void)[] = [];
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined) {
        return sendJson(response, 402, { detail: 'pay' }, { 'www-authenticate': CHALLENGE });
      }
      held.push(() => sendJson(response, 200, { echoes: echoes(paid) }));
      if (held.length === 6) for (const release of held.splice(0)) release();
    });
    const tokens: string[] = [];
    const client = paidClient(() => {
      tokens.push(newToken());
      return tokens.at(-1)!;
    });
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.request(echoRequest)));
    const texts = answers.map((answer) => JSON.stringify(answer.data));
    expect(tokens).toHaveLength(6);
    expect(tokens.flatMap((token) => texts.flatMap((text) => leaks(text, token)))).toEqual([]);
    for (const text of texts) expect(text).toContain('"raw":"[redacted]"');
  });

  it('a paid MCP answer whose x-ucp-auth-tier echoes the credential: the warning logs none of it', async () => {
    const token = newToken();
    server.handle((request, response) => {
      const id = rpcIdOf(request.body);
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined) {
        const error = { code: -32042, message: 'pay' };
        return sendJson(
          response,
          402,
          { jsonrpc: '2.0', id, error },
          { 'www-authenticate': CHALLENGE },
        );
      }
      sendJson(response, 200, toolsCallAnswer(id), { 'x-ucp-auth-tier': paid });
    });
    const warnings: unknown[] = [];
    const client = new CatalogClient({
      apiKey: KEY,
      mcpUrl: server.origin,
      maxRetries: 0,
      payment: { pay: () => `Payment ${token}` },
      logger: { warn: (message, fields) => warnings.push([message, fields]) },
    });
    await client.catalog.search({ query: 'trail shoe' });
    const logged = JSON.stringify(warnings);
    expect(logged).toContain('x-ucp-auth-tier');
    expect(logged).toContain('[redacted]');
    expect(logged).not.toContain(token.slice(0, 12).toLowerCase());
  });

  it('the connection-wide redactor covers the key: a spent credential is its call’s', async () => {
    const token = newToken();
    server.handle((request, response) => {
      if (paidToken(request.headers.authorization) === undefined) {
        return sendJson(response, 402, { detail: 'pay' }, { 'www-authenticate': CHALLENGE });
      }
      sendJson(response, 200, {});
    });
    const client = paidClient(() => token);
    await client.request(echoRequest);
    expect(client.redact(`${KEY} ${token}`)).toBe(`[redacted] ${token}`);
  });
});
