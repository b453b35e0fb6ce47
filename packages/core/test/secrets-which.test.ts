import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretEchoesIn } from '../src/errors/index.js';
import { redactSecrets } from './support/redact-text.js';

// Red team R4: the kit told secrets apart by re-running the matcher per secret (text ×
// secrets). The matcher now says which secrets it found, in one pass.

const KEY = 'ck_live_9fA2b7Kq0XyZ3mN8pQ4r';
const TOKEN = `tok_${randomBytes(24).toString('base64url')}`;
const OTHERS = Array.from({ length: 30 }, () => `tok_${randomBytes(24).toString('base64url')}`);

describe('secretEchoesIn', () => {
  it('names each secret echoed, in any form, in the order given, each once', () => {
    const secrets = [...OTHERS.slice(0, 10), TOKEN, ...OTHERS.slice(10), KEY];
    const text = `a ${encodeURIComponent(KEY)} b ${btoa(TOKEN)} c ${KEY.toUpperCase()} d`;
    expect(secretEchoesIn(text, secrets)).toEqual([TOKEN, KEY]);
    expect(secretEchoesIn('nothing here', secrets)).toEqual([]);
    expect(secretEchoesIn(text, secrets).length).toBeGreaterThan(0);
    expect(secretEchoesIn('nothing here', secrets)).toEqual([]);
  });

  it('names a secret held inside another one’s echo, and ignores short ones', () => {
    const inner = KEY.slice(8);
    expect(secretEchoesIn(`x${KEY}x`, [KEY, inner, 'ck_'])).toEqual([KEY, inner]);
    expect(secretEchoesIn(`x${inner}x`, [KEY, inner])).toEqual([inner]);
  });

  it('agrees with redactSecrets secret by secret', () => {
    const text = `detail: ${JSON.stringify(`&#x${KEY.charCodeAt(0).toString(16)};${KEY.slice(1)}`)} ${OTHERS[3]}`;
    const all = [KEY, TOKEN, ...OTHERS];
    expect(secretEchoesIn(text, all)).toEqual(all.filter((s) => redactSecrets(text, [s]) !== text));
  });
});

describe('two secrets that read alike (red team 4d F2)', () => {
  it('are both named', () => {
    for (const [a, b] of [
      ['abab1234', 'ABAB1234'],
      ['a+b+c+d', 'a b c d'],
      ['ab%41cd', 'abAcd'],
    ] as const) {
      expect(secretEchoesIn(`echo ${a} here`, [a, b])).toEqual([a, b]);
    }
  });
});
