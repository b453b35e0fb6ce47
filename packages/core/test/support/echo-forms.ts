import { randomBytes } from 'node:crypto';

/** The forms an accidental echo of a secret takes, as the redactor's scope names them. */
export const ECHO_FORMS: Record<string, (value: string) => string> = {
  raw: (v) => v,
  upper: (v) => v.toUpperCase(),
  percent: encodeURIComponent,
  json: (v) => JSON.stringify(v).replace(/\//g, '\\/'),
  jsonUnicode: (v) =>
    [...v].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  html: (v) => v.replace(/[^A-Za-z0-9]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
  base64: (v) => Buffer.from(v).toString('base64'),
};

/** The names of the forms of `secret` that `text` holds whole (any letter case). */
export function leaks(text: string, secret: string): string[] {
  const lower = text.toLowerCase();
  return Object.entries(ECHO_FORMS)
    .filter(([, form]) => lower.includes(form(secret).toLowerCase()))
    .map(([name]) => name);
}

/** A standard-base64 credential of `bytes` random bytes, holding `+`, `/` and `=` (encoders rewrite them). */
export function base64Token(bytes: number): string {
  for (;;) {
    const token = randomBytes(bytes).toString('base64');
    if (token.includes('+') && token.includes('/') && token.endsWith('=')) return token;
  }
}
