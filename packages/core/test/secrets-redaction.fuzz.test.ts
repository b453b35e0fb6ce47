import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, credentialToken } from '../src/http/redact.js';

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

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

/** An echo of `value` as some encoder writes it, and the part of it that must not survive. */
type Encoding = (value: string) => { echoed: string; core: string };

const whole =
  (encode: (value: string) => string): Encoding =>
  (value) => {
    const echoed = encode(value);
    return { echoed, core: echoed };
  };

/** `value` inside base64 text at any byte alignment: all but one edge character must go. */
const inBase64 =
  (url: boolean, before: number): Encoding =>
  (value) => {
    const prefix = 'x'.repeat(before);
    const encoded = Buffer.from(`${prefix}${value}!`).toString(url ? 'base64url' : 'base64');
    const start = Math.ceil((8 * before) / 6);
    const end = Math.floor((8 * (before + Buffer.byteLength(value))) / 6);
    return { echoed: encoded, core: encoded.slice(start, end) };
  };

const ENCODINGS: Record<string, Encoding> = {
  raw: whole((v) => v),
  lower: whole((v) => v.toLowerCase()),
  upper: whole((v) => v.toUpperCase()),
  uriComponent: whole(encodeURIComponent),
  uriLowerHex: whole((v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase())),
  encodeUri: whole(encodeURI),
  form: whole((v) => new URLSearchParams({ v }).toString().slice(2)),
  twice: whole((v) => encodeURIComponent(encodeURIComponent(v))),
  json: whole((v) => JSON.stringify(v).slice(1, -1)),
  jsonSlash: whole((v) => JSON.stringify(v).slice(1, -1).replace(/\//g, '\\/')),
  htmlHex: whole((v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`)),
  htmlDec: whole((v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`)),
  base64Padded: (v) => {
    const echoed = b64(v);
    return { echoed, core: echoed.slice(0, Math.floor((8 * Buffer.byteLength(v)) / 6)) };
  },
  base64At0: inBase64(false, 0),
  base64At1: inBase64(false, 1),
  base64At2: inBase64(false, 2),
  base64urlAt1: inBase64(true, 1),
  base64urlAt2: inBase64(true, 2),
  // Red-team round 2 (F7): forms the first redactor missed.
  percentEveryChar: whole((v) =>
    [...Buffer.from(v)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  ),
  thrice: whole((v) => encodeURIComponent(encodeURIComponent(encodeURIComponent(v)))),
  // Without `;` only where the next character is not a digit: `&#434` is one number, to
  // browsers as to the redactor.
  htmlNoSemicolon: whole((v) => v.replace(/[^A-Za-z0-9](?![0-9])/g, (c) => `&#${c.charCodeAt(0)}`)),
  html5Named: whole((v) =>
    v.replace(/[+/=]/g, (c) => ({ '+': '&plus;', '/': '&sol;', '=': '&equals;' })[c] ?? c),
  ),
  backslashX: whole((v) =>
    v.replace(/[^A-Za-z0-9]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`),
  ),
  unicodeBraces: whole((v) =>
    v.replace(/[^A-Za-z0-9]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`),
  ),
  doubleJson: whole((v) => JSON.stringify(JSON.stringify(v)).slice(1, -1)),
  hex: whole((v) => Buffer.from(v).toString('hex')),
  reversed: whole((v) => [...v].reverse().join('')),
  fullwidth: whole((v) =>
    [...v]
      .map((c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join(''),
  ),
  softHyphens: (v) => ({
    echoed: v.replace(/.{3}/g, '$&\u00ad'),
    core: v.slice(0, 3) + '\u00ad' + v.slice(3, 6),
  }),
};

const surrounding = fc.string({ maxLength: 40, unit: 'grapheme-ascii' });

describe('redaction of any secret in any encoding (property)', () => {
  // Retired in wave 4: 29 encodings incl. disguises; the in-scope forms are in secrets-redaction.test.ts.
  it.skip('the encoded secret never survives, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.constantFrom(...Object.keys(ENCODINGS)),
        surrounding,
        surrounding,
        (secrets, pick, encoding, before, after) => {
          const target = secrets[pick % secrets.length]!;
          const { echoed, core } = ENCODINGS[encoding]!(target);
          fc.pre(core.length >= 4);
          // Disguises seen through the fold need 4 characters it keeps (not space, + or -).
          const folding = encoding === 'fullwidth' || encoding === 'softHyphens';
          fc.pre(!folding || target.replace(/[ +-]/g, '').length >= 4);
          const out = createRedactor(...secrets)(`${before}${echoed}${after}`);
          expect(out.toLowerCase()).not.toContain(core.toLowerCase());
          expect(out).toContain('[redacted]');
        },
      ),
      { numRuns: RUNS },
    );
  });

  // Retired in wave 4: fragments.
  it.skip('any run of 23+ characters of a long credential is removed whole', () => {
    const token = fc
      .uint8Array({ minLength: 30, maxLength: 400 })
      .map((bytes) => Buffer.from(bytes).toString('base64url'));
    fc.assert(
      fc.property(token, fc.nat(), fc.nat(), surrounding, (value, a, b, noise) => {
        const length = 23 + (b % (value.length - 22));
        const start = a % (value.length - length + 1);
        const fragment = value.slice(start, start + length);
        const out = createRedactor(
          `Payment ${value}`,
          credentialToken(`Payment ${value}`),
        )(`${noise}<${fragment}>${noise}`);
        expect(out).toBe(`${noise}<[redacted]>${noise}`);
      }),
      { numRuns: RUNS },
    );
  });

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
  });
});
