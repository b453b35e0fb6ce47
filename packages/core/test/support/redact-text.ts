import { createRedactor } from '../../src/http/redact.js';

/** `text` through a redactor of `secrets`: what a client's error or tool output shows. */
export const redactSecrets = (text: string, secrets: readonly (string | undefined)[]) =>
  createRedactor(...secrets)(text);
