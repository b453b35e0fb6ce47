import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { encodeHTML } from 'entities';
import fc from 'fast-check';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { secretEchoesIn } from '../src/errors/index.js';
import { createRedactor, type Redactor } from '../src/http/redact.js';
import { CatalogClient } from '../src/index.js';
import { createCatalogToolList } from '../src/tools/index.js';
import { ECHO_FORMS, leaks } from './support/echo-forms.js';
import { catalogPayload, rpcIdOf, toolsCallAnswer } from './support/fixtures.js';
import { redactModuleAt, redactSecrets } from './support/redact-text.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// Red team of wave 4j: the redactor without a list of forms under way, the bounded recursive
// walker, and `redactSecrets` gone from the public surface. The scan is held to main's (the
// wave 4i KMP with its list, read from git at run time, nothing committed) and to a brute-force
// oracle of docs/SECURITY.md's scope; the walker to depth bounds, shared parts and cycles.

const MAIN = process.env.REDACT_MAIN || '7082293';
type Main = {
  redactSecrets: (text: string, secrets: readonly (string | undefined)[]) => string;
  secretEchoesIn: typeof secretEchoesIn;
  createRedactor: typeof createRedactor;
};
let main: Main;

beforeAll(async () => {
  main = await redactModuleAt<Main>(MAIN);
});

/** docs/SECURITY.md's decode, written out plainly: one escape at a time, then folded. */
const ESCAPE =
  /%([0-9a-f]{2})|\\u([0-9a-f]{4})|\\(["\\/])|&#x0*([0-9a-f]{1,4});|&#0*(\d{1,5});|&([a-z]{2,16});/iy;
const NAMED: Record<string, string> = Object.fromEntries(
  'excl! quot" QUOT" num# dollar$ percnt% amp& AMP& apos\' lpar( rpar) ast* midast* plus+ comma, period. sol/ colon: semi; lt< LT< equals= gt> GT> quest? commat@ lbrack[ lsqb[ bsol\\ rbrack] rsqb] Hat^ lowbar_ UnderBar_ grave` DiacriticalGrave` lbrace{ lcub{ verbar| vert| VerticalLine| rbrace} rcub}'
    .split(' ')
    .map((e) => [e.slice(0, -1), e.slice(-1)]),
);
const fold = (c: string) => (c === '+' ? ' ' : c >= 'A' && c <= 'Z' ? c.toLowerCase() : c);
type Unit = { c: string; from: number; to: number };
function decode(text: string, raw = false): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < text.length; ) {
    let [c, to] = [text[i]!, i + 1];
    ESCAPE.lastIndex = i;
    const m = raw || !'%&\\'.includes(c) ? null : ESCAPE.exec(text);
    if (m) {
      const code = Number.parseInt(m[1] ?? m[2] ?? m[4] ?? m[5] ?? '', m[5] ? 10 : 16);
      const value =
        m[3] ?? (m[6] ? NAMED[m[6]] : code <= 0xffff ? String.fromCharCode(code) : undefined);
      if (value !== undefined && (m[6] === undefined || Object.hasOwn(NAMED, m[6])))
        [c, to] = [value, ESCAPE.lastIndex];
    }
    units.push({ c: fold(c), from: i, to });
    i = to;
  }
  return units;
}
function oracleForms(secret: string): string[] {
  const b64 = Buffer.from(secret).toString('base64').replace(/=+$/, '');
  const written = [secret, JSON.stringify(secret).slice(1, -1), b64, b64.replace(/\+/g, '-')];
  written[3] = written[3]!.replace(/\//g, '_');
  const read = written.map((form) =>
    decode(form)
      .map((u) => u.c)
      .join(''),
  );
  read.push(secret.split('').map(fold).join(''));
  return [...new Set(read)].filter((form) => form.length >= 4);
}
/** Every occurrence of every form, naively; spans merged where they overlap or touch. */
function oracle(text: string, secrets: readonly (string | undefined)[]): string {
  const units = decode(text);
  const spans: [number, number][] = [];
  for (const secret of new Set(secrets)) {
    if (secret === undefined || secret.length < 4) continue;
    for (const form of oracleForms(secret))
      for (let a = 0; a + form.length <= units.length; a++)
        if (form.split('').every((c, j) => units[a + j]!.c === c))
          spans.push([units[a]!.from, units[a + form.length - 1]!.to]);
  }
  spans.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of spans) {
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  let [out, done] = ['', 0];
  for (const [from, to] of merged) [out, done] = [`${out}${text.slice(done, from)}[redacted]`, to];
  return merged.length === 0 ? text : out + text.slice(done);
}

const ENCODERS: ((value: string) => string)[] = [
  (v) => v,
  (v) => v.toUpperCase(),
  encodeURIComponent,
  (v) => encodeURIComponent(v).replace(/%20/g, '+'),
  (v) => JSON.stringify(v).slice(1, -1),
  encodeHTML,
  (v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
  (v) => v.replace(/./g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  (v) => Buffer.from(v).toString('base64'),
  (v) => Buffer.from(v).toString('base64url'),
  (v) => v.slice(0, -1), // near misses
  (v) => v.slice(1),
];
/** Units that begin escapes, that fold, and that share low 7 bits with ASCII (`á` is `a`+128). */
const tricky = fc.constantFrom(...'aAbB+%&\\#;x0129 /=-_"uU\u00e1\u00e2'.split(''));
const secretArb = fc.oneof(
  fc.stringMatching(/^[ -~]{4,24}$/),
  fc.array(tricky, { minLength: 4, maxLength: 10 }).map((a) => a.join('')),
  fc.array(fc.constantFrom('a', 'b', 'A'), { minLength: 4, maxLength: 9 }).map((a) => a.join('')),
  fc.string({ unit: 'grapheme', minLength: 2, maxLength: 8 }),
  fc.stringMatching(/^[0-9]{4,10}$/),
  fc.constantFrom('abc', '', 'a+b ', '%41%42', '&amp;&amp;'),
);
const textOf = (secrets: string[]) =>
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 8, unit: 'grapheme-ascii' }),
        fc.array(tricky, { maxLength: 8 }).map((a) => a.join('')),
        fc.constantFrom('%2', '%25', '&amp;', '&#x', '\\u00', '\\/', '&plus;', '&#0043;', '%2B'),
        fc
          .tuple(fc.nat(secrets.length - 1), fc.nat(ENCODERS.length - 1))
          .map(([s, e]) => ENCODERS[e]!(secrets[s]!)),
      ),
      { maxLength: 14 },
    )
    .map((parts) => parts.join(''));
const cases = fc
  .array(fc.option(secretArb, { nil: undefined }), { minLength: 1, maxLength: 4 })
  .chain((secrets) => fc.tuple(fc.constant(secrets), textOf(secrets.map((s) => s ?? 'none'))));

describe('R4j what held: the scan without a list of forms under way reads as before', () => {
  it('the same text as main’s scan and as a brute-force oracle; the same secrets named', () => {
    fc.assert(
      fc.property(cases, ([secrets, text]) => {
        const redacted = redactSecrets(text, secrets);
        expect(redacted).toBe(main.redactSecrets(text, secrets));
        expect(redacted).toBe(oracle(text, secrets));
        const named = secretEchoesIn(text, secrets);
        expect(named).toEqual(main.secretEchoesIn(text, secrets));
        expect(named).toEqual(
          [...new Set(secrets)].filter((s) => s !== undefined && oracle(text, [s]) !== text),
        );
      }),
      { numRuns: Number(process.env.CATALOGKIT_FUZZ_RUNS) || 3000, seed: 4_2040 },
    );
  });
});

/** Best of three CPU-bound runs, in milliseconds. */
function best(run: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}
const MB = 1 << 20;
const fill = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length));

describe('R4j speed: linear, and within a small factor of main where forms are under way', () => {
  // A token the service mints keeps one form under way at every unit of a text of `a`s; the
  // key and credential add idle forms, which this scan steps at every such unit (main did not).
  const escaped = (p: string) => `${p}${randomBytes(30).toString('base64')}%41"\\`;
  const secrets = [escaped('ck_'), `${'a'.repeat(200)}${escaped('t')}`, escaped('c')];
  const texts: Record<string, string> = {
    'a text of `a`s (one form always under way)': 'a',
    'units whose low 7 bits begin a form (`á` is `a`+128)': '\u00e1\u00e3\u00eb\u00f4',
  };
  for (const [name, unit] of Object.entries(texts)) {
    it(name, () => {
      const [now, before] = [createRedactor(...secrets), main.createRedactor(...secrets)];
      const [small, large] = [fill(unit, MB), fill(unit, 4 * MB)];
      const [t1, t4] = [best(() => now(small)), best(() => now(large))];
      const ratio = t4 / best(() => before(large));
      expect(t4 / t1).toBeLessThan(10); // 4× the text: linear (about 4×)
      expect(ratio).toBeLessThan(4); // measured 1.2-2× on a quiet machine
    });
  }
});

describe('R4j-F1: a unit that begins a form steps the forms under way and those it begins, not all', () => {
  // Stepping every form while one is under way cost each unit that begins any form a step of
  // every form: ordinary text begins one at most letters once a set holds base64 secrets, so
  // the testing kit's 32 secrets took 11× main's time on catalog text (241 ms a MB against 21).
  it('secretEchoesIn of 32 secrets on 1 MB of catalog text with echoes: within 3× of main', () => {
    const secrets = Array.from({ length: 32 }, (_, i) =>
      i % 2 ? `ck_live_${randomBytes(12).toString('hex')}` : randomBytes(48).toString('base64'),
    );
    const product = (i: number) =>
      JSON.stringify({ ...catalogPayload().products[0], id: `p${i}`, title: `Trail shoe ${i}` });
    let text = '';
    for (let i = 0; text.length < MB; i++)
      text += `${product(i)}${i % 50 ? '' : ` echo ${encodeURIComponent(secrets[i % 32]!)} `}`;
    const named = secretEchoesIn(text, secrets);
    expect(named).toEqual(main.secretEchoesIn(text, secrets));
    expect(named.length).toBeGreaterThan(8);
    const ratio =
      best(() => secretEchoesIn(text, secrets)) / best(() => main.secretEchoesIn(text, secrets));
    expect(ratio).toBeLessThan(3);
  });
});

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const redact: Redactor = createRedactor(KEY);
/** Everything a caller could see of a value: inspect with hidden fields, and JSON. */
const seen = (value: unknown) =>
  `${inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true })}\n${JSON.stringify(value)}`;
const nest = (levels: number, inner: unknown) => {
  let value = inner;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
};
/** The innermost non-array of a chain of one-element arrays, and how many arrays lead to it. */
function innermost(value: unknown): [unknown, number] {
  let [item, arrays] = [value, 0];
  for (; Array.isArray(item); arrays++) item = item[0];
  return [item, arrays];
}

describe('R4j what held: the bounded walker', () => {
  it('300 levels are walked, the 301st reads [redacted], at 299, 300, 301 and 302 levels', () => {
    for (const [levels, arrays] of [
      [298, 299],
      [299, 300],
      [300, 301],
      [301, 301],
      [302, 301],
    ] as const) {
      const copy = redact(nest(levels, [KEY]));
      expect(seen(copy)).not.toContain(KEY);
      expect(innermost(copy)).toEqual(['[redacted]', arrays]);
    }
    let object: unknown = { [KEY]: KEY };
    for (let level = 0; level < 600; level++) object = { [`k_${KEY}`]: object, n: level };
    expect(seen(redact(object))).not.toContain(KEY);
  });

  it('a shared part holding the key, reached first past the bound and then shallow, or the other way', () => {
    for (const order of ['deep first', 'shallow first']) {
      const shared = { note: `key=${KEY}` };
      const [deep, shallow] = [nest(600, shared), [[shared]]];
      const value = order === 'deep first' ? { deep, shallow } : { shallow, deep };
      const copy = redact(value);
      expect(seen(copy)).not.toContain(KEY);
      expect(copy.shallow).toEqual([[{ note: 'key=[redacted]' }]]);
    }
    const shared = { a: { b: { c: { d: KEY } } } }; // walked at 298 first: its tail is cut
    const copy = redact({ deep: nest(297, shared), shallow: [shared] });
    expect(seen(copy)).not.toContain(KEY);
    expect(copy.shallow[0]).toBe(innermost(copy.deep)[0]); // one copy, shared
  });

  it('cycles through arrays and objects: each back-reference reads [redacted]', () => {
    const list: unknown[] = [KEY];
    list.push(list);
    const a: Record<string, unknown> = { key: KEY };
    const b = { a, list };
    a.b = b;
    const copy = redact({ b, a, list });
    expect(seen(copy)).not.toContain(KEY);
    expect(copy.list).toEqual(['[redacted]', '[redacted]']);
    expect(copy.a).toBe(copy.b.a); // a shared part keeps one copy
    // main returned the original at a back-reference: the key was one step away.
    const cyclic: Record<string, unknown> = { key: KEY };
    cyclic.self = cyclic;
    expect(inspect(main.createRedactor(KEY)(cyclic), { depth: 3 })).toContain(KEY);
    expect(seen(redact(cyclic))).not.toContain(KEY);
  });

  it('`__proto__` members, null prototypes, frozen parts, digit keys, 200,000 levels: no throw, no key', () => {
    const parsed = JSON.parse(
      `{"__proto__": {"k": "${KEY}"}, "${KEY}": 1, "x": {"__proto__": "${KEY}"}}`,
    ) as Record<string, unknown>;
    const copy = redact(parsed);
    expect(seen(copy)).not.toContain(KEY);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype); // a member, not a prototype
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    const bare = Object.assign(Object.create(null) as object, { k: KEY });
    const frozen = Object.freeze({ k: KEY, list: Object.freeze([KEY]), bare });
    expect(seen(redact({ frozen, also: frozen }))).not.toContain(KEY);
    const digits = createRedactor('12345678');
    const numbers = { 12345678: 12345678, list: [1234567800, 0.12345678, -12345678, 1.2345678e7] };
    expect(seen(digits(numbers))).not.toMatch(/1\.?2345678/);
    expect(() => redact(nest(200_000, KEY))).not.toThrow();
  });

  it('a container with no secret is returned as it is, wide ones too', () => {
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, `v${i}`]));
    const value = { wide, list: [1, 'two', null, true, { deep: nest(100, 'x') }] };
    expect(redact(value)).toBe(value);
    wide.k49999 = KEY;
    const copy = redact(value);
    expect([copy === value, copy.list === value.list, copy.wide.k49999]).toEqual([
      false,
      true,
      '[redacted]',
    ]);
  });
});

describe('R4j what held: a client against a loopback service echoing the key deep in an answer', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  it('search_catalog: the key nested 50 levels deep in names, values and shared-looking parts', async () => {
    let deep: unknown = { [KEY]: KEY.toUpperCase(), url: `https://x.example/?k=${KEY}` };
    for (let level = 0; level < 50; level++)
      deep = level % 2 ? [deep, encodeURIComponent(KEY)] : { [`n${level}`]: deep, ref: '#/0' };
    server.handle((request, response) => {
      const content = catalogPayload();
      (content.products[0] as Record<string, unknown>).x_debug = deep;
      (content as Record<string, unknown>).x_again = deep;
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body), content));
    });
    const [search] = createCatalogToolList({
      clientOptions: { apiKey: KEY, mcpUrl: server.origin, maxRetries: 0 },
      include: ['search_catalog'],
    });
    if (search?.originalName !== 'search_catalog') throw new Error('no search_catalog');
    const output = await search.execute({
      query: 'shoe',
      limit: null,
      cursor: null,
      placements: null,
    });
    const text = `${seen(output)}\n${seen(search.toModelOutput(output))}`;
    expect(server.requests.length).toBeGreaterThan(0);
    expect(text.toLowerCase()).not.toContain(KEY.toLowerCase());
    expect(text).toContain('[redacted]');
  });

  it('a paid REST answer echoing its credential 60 levels deep, in every form, names and values', async () => {
    const token = randomBytes(120).toString('base64');
    const challenge = `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${Buffer.from(JSON.stringify({ amount: '25', currency: 'usd' })).toString('base64url')}"`;
    server.handle((request, response) => {
      const auth = request.headers.authorization;
      if (!auth?.startsWith('Payment ')) {
        return sendJson(response, 402, { detail: 'pay' }, { 'www-authenticate': challenge });
      }
      const paid = auth.slice('Payment '.length);
      let deep: unknown = Object.fromEntries(
        Object.entries(ECHO_FORMS).map(([name, form]) => [`${name}:${form(paid)}`, form(paid)]),
      );
      for (let level = 0; level < 60; level++) deep = level % 2 ? [deep, paid] : { [paid]: deep };
      sendJson(response, 200, { deep });
    });
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 0,
      payment: { pay: () => `Payment ${token}` },
    });
    const answer = await client.request({
      operation: 'echo',
      method: 'GET',
      path: '/v1/echo',
      retry: 'idempotent',
    });
    expect(server.requests).toHaveLength(2); // asked, then paid: the server did echo it
    expect(leaks(seen(answer.data), token)).toEqual([]);
    expect(seen(answer.data)).toContain('[redacted]');
  });
});
