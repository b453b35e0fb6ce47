import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SentSecrets } from '../src/http/redact.js';

// Red team R2: every paid call rebuilt the one matcher of all live credentials (116 ms per
// paid call at 256). Now an add rebuilds a small matcher of the credentials added since
// the last merge, and the two merge every √N adds.

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const credential = () => randomBytes(450).toString('base64url');
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e3;
};

describe('SentSecrets', () => {
  // Retired (wave 4f, docs/SECURITY.md): "keeps a credential for 30 minutes from its last send,
  // then forgets it". Credentials are kept until 256 newer ones or 256 Ki characters of them
  // push them out: the window bounded nothing the bounds do not, and forgetting protects nothing.
  it('a credential sent again is the newest, kept when older ones are dropped', () => {
    const sent = new SentSecrets(KEY);
    const [first, ...rest] = Array.from({ length: 300 }, credential);
    for (const token of rest) {
      sent.add(`Payment ${token}`);
      sent.add(`Payment ${first}`); // sent again: the newest
    }
    expect(sent.redact(`${first} ${rest.at(-1)}`)).toBe('[redacted] [redacted]');
    sent.add(`Payment ${credential()}`); // a merge, which forgets the dropped ones
    for (let i = 0; i < 40; i++) sent.add(`Payment ${credential()}`);
    expect(sent.redact(rest[0]!)).toBe(rest[0]); // beyond the newest 256
  });

  it('redacts each credential from its add on, and the earlier ones, across merges', () => {
    const sent = new SentSecrets(KEY);
    const all: string[] = [];
    for (let i = 0; i < 40; i++) {
      const token = credential();
      all.push(token);
      sent.add(`Payment ${token}`);
      const echoed = `key ${KEY} now ${token} first ${all[0]} half ${all[i >> 1]}`;
      expect(sent.redact(echoed)).toBe(
        'key [redacted] now [redacted] first [redacted] half [redacted]',
      );
    }
  });

  it('a paid call at 256 live credentials costs far less than rebuilding them all', () => {
    const sent = new SentSecrets(KEY);
    for (let i = 0; i < 256; i++) sent.add(`Payment ${credential()}`);
    // The cost of one full rebuild, on this machine now: the first redaction builds it.
    let start = cpu();
    sent.redact('warm');
    const rebuild = cpu() - start;
    // 32 paid calls: the old SentSecrets rebuilt at each (32 rebuilds); now about two merges.
    start = cpu();
    for (let i = 0; i < 32; i++) {
      sent.add(`Payment ${credential()}`);
      sent.redact('{"products":[]}');
    }
    expect(cpu() - start).toBeLessThan(rebuild * 8);
  });

  it('keeps at most 256 Ki characters of credentials, oldest dropped first (red team 4d F1)', () => {
    const sent = new SentSecrets(KEY);
    // 16 KiB each, as a service choosing its challenge can make every credential.
    const long = Array.from({ length: 40 }, () => randomBytes(12_288).toString('base64url'));
    for (const token of long) sent.add(`Payment ${token}`);
    // 16 of 16 KiB fit in 256 Ki characters: the newest 16 are matched, the rest forgotten.
    const shown = long.map((token) => sent.redact(token) === '[redacted]');
    expect(shown.slice(-16).every(Boolean)).toBe(true);
    expect(shown.slice(0, 24).some(Boolean)).toBe(false);
    expect(sent.redact(KEY)).toBe('[redacted]');
  });
});
