/*
 * The forms a service or proxy echoes a secret in, as packages/core/test/secrets-echo.test.ts
 * writes them (copied: a test file cannot be imported without running its suite).
 */
const hex = (code: number) => code.toString(16).padStart(2, '0');

/** Each in-scope form of `secret`, written the way a real encoder writes it. */
export const FORMS: Record<string, (secret: string) => string> = {
  raw: (secret) => secret,
  lower: (secret) => secret.toLowerCase(),
  upper: (secret) => secret.toUpperCase(),
  mixedCase: (secret) =>
    [...secret].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
  uriComponent: (secret) => encodeURIComponent(secret),
  everyBytePercent: (secret) =>
    [...Buffer.from(secret)].map((byte) => `%${hex(byte).toUpperCase()}`).join(''),
  form: (secret) => new URLSearchParams({ v: secret }).toString().slice(2),
  jsonUnicode: (secret) =>
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  jsonSlashes: (secret) => JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
  htmlHex: (secret) => [...secret].map((c) => `&#x${hex(c.charCodeAt(0))};`).join(''),
  htmlDecimal: (secret) => [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  htmlNamed: (secret) =>
    secret.replace(
      /[+/=_]/g,
      (c) => ({ '+': '&plus;', '/': '&sol;', '=': '&equals;' })[c] ?? '&lowbar;',
    ),
  base64: (secret) => Buffer.from(secret).toString('base64'),
  base64Unpadded: (secret) => Buffer.from(secret).toString('base64').replace(/=+$/, ''),
  base64url: (secret) => Buffer.from(secret).toString('base64url'),
};
