import { encodeHTML, encodeXML } from 'entities';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../src/http/redact.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 200;

// Secrets as keys and credentials are made: printable ASCII, rich in what encoders rewrite.
const secretChar = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
  },
  { weight: 3, arbitrary: fc.constantFrom(...'+/=%&<>"\' _-.~:;,?#@!$*()[]{}|\\^`') },
);
const secret = fc.array(secretChar, { minLength: 4, maxLength: 80 }).map((chars) => chars.join(''));

const b64 = (value: string) => Buffer.from(value).toString('base64');
const hex2 = (code: number) => code.toString(16).padStart(2, '0');

/**
 * The forms an accidental echo takes (issue 33, step 2), each as a real encoder writes it.
 * Disguises (reversed, hex, fragments, decorative Unicode) are out of scope: see
 * docs/SECURITY.md.
 */
const FORMS: Record<string, (value: string) => string> = {
  raw: (v) => v,
  lower: (v) => v.toLowerCase(),
  upper: (v) => v.toUpperCase(),
  uriComponent: encodeURIComponent,
  uriLowerHex: (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()),
  encodeUri: encodeURI,
  form: (v) => new URLSearchParams({ v }).toString().slice(2),
  percentEveryByte: (v) => [...Buffer.from(v)].map((b) => `%${hex2(b)}`).join(''),
  json: (v) => JSON.stringify(v).slice(1, -1),
  jsonSlash: (v) => JSON.stringify(v).slice(1, -1).replace(/\//g, '\\/'),
  jsonUnicode: (v) =>
    [...v].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  htmlHex: (v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
  htmlDec: (v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`),
  html5Named: (v) =>
    v.replace(/[+/=]/g, (c) => ({ '+': '&plus;', '/': '&sol;', '=': '&equals;' })[c] ?? c),
  // Real HTML/XML encoders (entities: htmlparser2, cheerio): `|` as `&vert;`, `{` as `&lbrace;`.
  entitiesHtml: encodeHTML,
  entitiesXml: encodeXML,
  base64: b64,
  base64Unpadded: (v) => b64(v).replace(/=+$/, ''),
  base64url: (v) => Buffer.from(v).toString('base64url'),
};

const surrounding = fc.string({ maxLength: 40, unit: 'grapheme-ascii' });

describe('redaction of any secret in any in-scope form (property)', () => {
  it('the echoed form never survives, whatever surrounds it, and the surroundings stay', () => {
    fc.assert(
      fc.property(
        secret.filter((value) => value.length >= 8),
        fc.constantFrom(...Object.keys(FORMS)),
        surrounding,
        surrounding,
        (value, name, before, after) => {
          const echoed = FORMS[name]?.(value) ?? '';
          // `[` keeps the surroundings from running into the echo (a `%` before it, say).
          const out = createRedactor(value)(`${before}[${echoed}]${after}`);
          expect(out.toLowerCase()).not.toContain(echoed.toLowerCase());
          expect(out.toLowerCase()).not.toContain(value.toLowerCase());
          expect(out).toContain('[redacted]');
        },
      ),
      { numRuns: RUNS },
    );
  });

  // Retired in wave 4c: echoes escaped more than once (red team A2-A4) are out of scope
  // (docs/SECURITY.md): an accidental echo goes through one encoder.

  it('leaves text without the secret unchanged', () => {
    fc.assert(
      fc.property(secret, fc.string({ maxLength: 200 }), (value, text) => {
        fc.pre(!text.toLowerCase().includes(value.toLowerCase()) && value.length >= 8);
        const out = createRedactor(value)(text);
        // Only text the secret's forms could produce may change; random text keeps its length.
        if (!out.includes('[redacted]')) expect(out).toBe(text);
      }),
      { numRuns: RUNS },
    );
  });

  it('takes time linear in the text, for any secret and hostile repetition of its prefix', () => {
    fc.assert(
      fc.property(secret, fc.nat(), (value, cut) => {
        const near = value.slice(0, 1 + (cut % value.length));
        const redact = createRedactor(value, `${value}${value}${value}`);
        const time = (text: string) => {
          const start = performance.now();
          redact(text);
          return performance.now() - start;
        };
        const small = near.repeat(Math.ceil(20_000 / near.length));
        const large = near.repeat(Math.ceil(200_000 / near.length));
        // The best of three: other processes share the CPU, and a GC pause is not a trend.
        const best = (text: string) => Math.min(time(text), time(text), time(text));
        expect(best(large)).toBeLessThan(Math.max(best(small), 3) * 60);
      }),
      { numRuns: Math.max(10, Math.floor(RUNS / 10)) },
    );
  }, 120_000); // a hang guard: on a busy machine the runs take tens of seconds; the ratio is the test
});
