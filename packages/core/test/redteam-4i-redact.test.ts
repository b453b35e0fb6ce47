import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConversationTokenManager,
  createHttpTokenMinter,
  createTurnSender,
} from '../src/conversations/index.js';
import { createRedactor } from '../src/http/redact.js';
import { CatalogClient } from '../src/index.js';
import { createCatalogToolList } from '../src/tools/index.js';
import { base64Token, ECHO_FORMS, leaks } from './support/echo-forms.js';
import { catalogPayload, rpcIdOf, toolsCallAnswer } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// Red team of wave 4i (issue 33 step 2): the KMP redactor and the call-scoped credential.
// Loopback servers written to misbehave; each finding's test is named by its id (R4i-F<n>).

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const challenge = (request: unknown = { amount: '25', currency: 'usd' }) =>
  `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64url(request)}"`;

const newToken = (bytes = 181) => base64Token(bytes);

/** The in-scope forms of an accidental echo, as real encoders write them. */
const FORMS = ECHO_FORMS;
const echoes = (token: string) =>
  Object.entries(FORMS)
    .map(([name, form]) => `${name}=${form(token)}`)
    .join(' | ');

/** Everything an error shows: String, stack, inspect with hidden fields and causes, JSON. */
function shown(error: unknown): string {
  const value = error as Error & Record<string, unknown>;
  return [
    String(value),
    value.stack,
    inspect(value, { depth: 10, showHidden: true }),
    JSON.stringify(value),
  ].join('\n');
}

const paidToken = (authorization: string | undefined) =>
  authorization?.startsWith('Payment ') ? authorization.slice('Payment '.length) : undefined;

function askToPay(response: ServerResponse, id?: unknown) {
  const body = id === undefined ? { detail: 'pay' } : { jsonrpc: '2.0', id, error: { code: -1 } };
  sendJson(response, 402, body, { 'www-authenticate': challenge() });
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const echoRequest = {
  operation: 'echo',
  method: 'GET',
  path: '/v1/echo',
  retry: 'idempotent',
} as const;

describe('what held: a paid call’s answers never show its credential', () => {
  /** The paid answer of each MCP surface, echoing the credential `paid`. */
  const MCP_ANSWERS: Record<string, (id: unknown, paid: string, response: ServerResponse) => void> =
    {
      'JSON 2xx, in a title and a member name': (id, paid, response) => {
        const content = catalogPayload();
        const [product] = content.products;
        if (product) {
          product.title = `shoe ${echoes(paid)}`;
          (product as Record<string, unknown>)[`by_${paid}`] = paid.toUpperCase();
        }
        sendJson(response, 200, toolsCallAnswer(id, content), { 'x-ucp-auth-tier': 'token' });
      },
      'SSE 2xx, in a title': (id, paid, response) => {
        const content = catalogPayload();
        const [product] = content.products;
        if (product) product.title = `shoe ${echoes(paid)}`;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(': primed\n\nevent: message\n');
        response.end(`data: ${JSON.stringify(toolsCallAnswer(id, content))}\n\n`);
      },
      'a tool error (isError) quoting it': (id, paid, response) => {
        const text = `refused ${echoes(paid)}`;
        const result = { isError: true, content: [{ type: 'text', text }] };
        sendJson(response, 200, { jsonrpc: '2.0', id, result });
      },
      'a JSON-RPC error in a 200 (message and data)': (id, paid, response) => {
        const error = { code: -32603, message: `bad ${paid}`, data: { echoes: echoes(paid) } };
        sendJson(response, 200, { jsonrpc: '2.0', id, error });
      },
      'a JSON-RPC error in a 400 with header echoes': (id, paid, response) => {
        const error = { code: -32602, message: `bad ${echoes(paid)}`, data: paid };
        sendJson(
          response,
          400,
          { jsonrpc: '2.0', id, error },
          { [`x-c-${FORMS.percent!(paid)}`]: paid },
        );
      },
      'a 500 HTML page (snippet)': (_id, paid, response) => {
        response.writeHead(500, { 'content-type': 'text/html', 'x-echo': FORMS.base64!(paid) });
        response.end(`<p>Authorization: Payment ${FORMS.html!(paid)}</p>`);
      },
    };

  for (const [surface, answer] of Object.entries(MCP_ANSWERS)) {
    it(`MCP through the search_catalog tool: ${surface}`, async () => {
      const token = newToken();
      server.handle((request, response) => {
        const id = rpcIdOf(request.body);
        const paid = paidToken(request.headers.authorization);
        if (paid === undefined) return askToPay(response, id);
        answer(id, paid, response);
      });
      const logged: unknown[] = [];
      const log = (...entry: unknown[]) => logged.push(entry);
      const [search] = createCatalogToolList({
        clientOptions: {
          apiKey: KEY,
          mcpUrl: server.origin,
          maxRetries: 0,
          payment: { pay: () => `Payment ${token}` },
          logger: { warn: log, error: log, info: log, debug: log },
        },
        include: ['search_catalog'],
      });
      if (search?.originalName !== 'search_catalog') throw new Error('no search_catalog');
      const input = { query: 'shoe', limit: null, cursor: null, placements: null };
      const outcome = await search.execute(input).then(
        (output) => [JSON.stringify(output), JSON.stringify(search.toModelOutput(output))],
        (error: unknown) => [shown(error), String(search.errorToModelOutput(error))],
      );
      const text = [...outcome, JSON.stringify(logged)].join('\n');
      expect(server.requests).toHaveLength(2); // asked, then paid: the server did echo it
      expect(leaks(text, token)).toEqual([]);
    });
  }

  it('REST: the paid resend redirected to a URL naming it, 503, 429 with Retry-After, then a 402 quoting it', async () => {
    const token = newToken();
    let step = 0;
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      const s = step++;
      if (s === 0) return askToPay(response);
      if (s === 1) {
        response.writeHead(307, {
          location: `/v1/echo/${encodeURIComponent(paid ?? '')}?c=${paid}`,
        });
        return response.end();
      }
      if (s === 2)
        return sendJson(response, 503, { detail: `busy ${paid}` }, { 'retry-after': '0' });
      if (s === 3) {
        const detail = `slow down ${echoes(token)}`;
        return sendJson(response, 429, { detail }, { 'retry-after': '0', 'x-was': token });
      }
      const detail = `still unpaid: ${echoes(token)}`;
      sendJson(
        response,
        402,
        { detail },
        {
          'www-authenticate': challenge(),
          [`x-${token.slice(0, 40).replace(/[+/=]/g, '_')}`]: '1',
        },
      );
    });
    const logged: unknown[] = [];
    const log = (...entry: unknown[]) => logged.push(entry);
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 3,
      payment: { pay: () => `Payment ${token}` },
      logger: { warn: log, error: log, info: log, debug: log },
    });
    const error = await client.request(echoRequest).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 402 });
    expect(server.requests.map((r) => r.url.slice(0, 9))).toEqual([
      '/v1/echo',
      '/v1/echo',
      '/v1/echo/',
      '/v1/echo',
      '/v1/echo',
    ]);
    expect(leaks(`${shown(error)}\n${JSON.stringify(logged)}`, token)).toEqual([]);
  });

  it('the onReceipt hook’s error quoting the credential is logged without it', async () => {
    const token = newToken();
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined) return askToPay(response);
      const receipt = b64url({ method: 'test', reference: paid, status: 'success' });
      sendJson(response, 200, { ok: echoes(paid) }, { 'payment-receipt': receipt });
    });
    const logged: unknown[] = [];
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 0,
      payment: {
        pay: () => `Payment ${token}`,
        onReceipt: (receipt) => {
          throw new Error(`cannot book ${String(receipt.reference)}: ${echoes(token)}`);
        },
      },
      logger: { error: (...entry) => logged.push(entry) },
    });
    const answer = await client.request(echoRequest);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged).toHaveLength(1);
    expect(leaks(JSON.stringify([answer.data, logged]), token)).toEqual([]);
  });

  it('20 concurrent paid calls, each answered once all paid, echoing its own and the others’: its own never shows', async () => {
    const sent: string[] = [];
    const held: ((all: string[]) => void)[] = [];
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined) return askToPay(response);
      sent.push(paid);
      held.push((all) => sendJson(response, 200, { mine: echoes(paid), all: all.join(' ') }));
      if (held.length === 20) for (const release of held.splice(0)) release(sent);
    });
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 0,
      payment: { pay: () => `Payment ${newToken(61 + 3 * Math.floor(Math.random() * 60))}` },
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client.request(echoRequest).then((a) => a.data)),
    );
    expect(sent).toHaveLength(20);
    // Each answer's `mine` is its own credential in every form: all redacted.
    for (const [index, data] of answers.entries()) {
      const mine = String((data as { mine: string }).mine);
      expect(mine).toContain('raw=[redacted] | upper=[redacted] | percent=[redacted]');
      expect(
        sent.flatMap((token) => leaks(mine, token)),
        `answer ${index}`,
      ).toEqual([]);
    }
    // Each `all` names the 20 credentials: its own is redacted, the 19 others (spent by other
    // calls) stay, as the scope says (docs/SECURITY.md, "Retired in wave 4i").
    for (const data of answers) {
      const all = String((data as { all: string }).all);
      expect(all.split(' ').filter((part) => part === '[redacted]')).toHaveLength(1);
    }
  });
});

describe('what held: the KMP scan stays linear where the most forms are under way', () => {
  it('secrets that keep six forms under way on every unit: 10× the text within 40× the time', () => {
    // Two readings each (decoded and as written), all prefixes of a run of `a`: every unit
    // steps six forms and falls back once in each (the automaton took one step).
    const redact = createRedactor(
      `${'a'.repeat(60)}%62`,
      `${'a'.repeat(200)}%63"`,
      `${'a'.repeat(300)}%64\\`,
    );
    const cpuMs = (text: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const start = process.cpuUsage();
        expect(redact(text)).toBe(text);
        const used = process.cpuUsage(start);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return best;
    };
    const small = cpuMs('a'.repeat(500_000));
    const large = cpuMs('a'.repeat(5_000_000));
    expect(large).toBeLessThan(Math.max(40 * small, 200));
    expect(large).toBeLessThan(5_000);
  });
});

describe('findings', () => {
  it('R4i-F1: a mint answer with its fields swapped (the token as expires_at) is not quoted in the TokenMintError or the log', async () => {
    const minted = `tok_${randomBytes(24).toString('base64url')}`;
    let mints = 0;
    server.handle((request, response) => {
      if (!request.url.endsWith('/tokens')) return sendJson(response, 404, { detail: 'no' });
      // The first mint is sound; the refresh swaps the fields (a serializer bug).
      const fresh = {
        token: `tok_first_${'x'.repeat(20)}`,
        expires_at: new Date(Date.now() + 3_000_000).toISOString(),
      };
      sendJson(
        response,
        201,
        mints++ === 0 ? fresh : { token: fresh.expires_at, expires_at: minted },
      );
    });
    const client = new CatalogClient({ apiKey: KEY, baseUrl: server.origin, maxRetries: 0 });
    const logged: unknown[] = [];
    let now = 1_000_000;
    const manager = new ConversationTokenManager({
      mint: createHttpTokenMinter({ client, conversationId: 'conv_1' }),
      logger: { warn: (...entry) => logged.push(entry) },
      now: () => now,
    });
    await manager.getToken();
    // Inside the refresh margin, with 50 s of life left: the failed refresh falls back, logged.
    now += 1_750_000;
    await manager.getToken();
    const failed = await new ConversationTokenManager({
      mint: createHttpTokenMinter({ client, conversationId: 'conv_1' }),
    })
      .getToken()
      .catch((caught: unknown) => caught);
    expect(mints).toBe(3);
    expect(String(failed)).toContain('expiresAt is not a parseable date');
    expect(logged).toHaveLength(1);
    expect(`${shown(failed)}\n${JSON.stringify(logged)}`).not.toContain(minted);
  });

  it('R4i-F3: a turn whose fetch fails quoting the request: the ConnectionError holds none of its bearer token', async () => {
    const token = `tok_${randomBytes(24).toString('base64url')}`;
    // The loopback server drops the connection; a fetch wrapper (a logging or proxy wrapper)
    // describes the request it could not send, as some do: its message is the failure's reason.
    server.handle((_request, response) => response.socket?.destroy());
    const fetch: typeof globalThis.fetch = async (input, init) => {
      try {
        return await globalThis.fetch(input, init);
      } catch {
        const headers = new Headers(init?.headers);
        throw new TypeError(
          `proxy refused ${String(input)} (authorization: ${headers.get('authorization')})`,
        );
      }
    };
    const client = new CatalogClient({ baseUrl: server.origin, maxRetries: 0, fetch });
    const send = createTurnSender({ client });
    const error = await send({ conversationId: 'conv_1', token, message: 'hi' }).catch(
      (caught: unknown) => caught,
    );
    expect(String(error)).toContain('proxy refused');
    expect(server.requests).toHaveLength(1);
    expect(leaks(shown(error), token)).toEqual([]);
  });

  // R4i-F2 (low, fixed): a paid call's retry is answered 402 whose challenge `request`
  // (base64url JSON) names the spent credential as its currency. The call's redactor reads the
  // encoded challenge; the client itself then decodes it for the model's price text ("25 base
  // units of <credential>"), and the tool's redactor (`client.redact`) knows only the key since
  // wave 4i. The price now names a currency only as an ISO code or a token address.
  it('R4i-F2: the price text of a paid call’s 402 shows no credential the client decoded', async () => {
    const token = newToken();
    server.handle((request, response) => {
      const paid = paidToken(request.headers.authorization);
      if (paid === undefined && server.requests.length === 1) return askToPay(response);
      if (paid !== undefined)
        return sendJson(response, 503, { detail: 'busy' }, { 'retry-after': '0' });
      const again = challenge({ amount: '25', currency: token });
      sendJson(response, 402, { detail: 'pay again' }, { 'www-authenticate': again });
    });
    const [websites] = createCatalogToolList({
      clientOptions: {
        apiKey: KEY,
        baseUrl: server.origin,
        maxRetries: 1,
        payment: { pay: () => `Payment ${token}` },
      },
      include: ['search_websites'],
    });
    if (websites?.originalName !== 'search_websites') throw new Error('no search_websites');
    const input = { query: 'shoes', limit: null, category_ids: null, country: null };
    const error = await websites.execute(input).catch((caught: unknown) => caught);
    expect(server.requests).toHaveLength(3);
    const text = String(websites.errorToModelOutput(error));
    expect(text).toContain('asks for a payment');
    expect(leaks(shown(error), token)).toEqual([]); // the error itself holds none
    expect(leaks(text, token)).toEqual([]); // was: the model read it in the price
    expect(text).toContain('25 base units of a token');
  });
});
