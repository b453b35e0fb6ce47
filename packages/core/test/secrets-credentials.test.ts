import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
  afterEach(() => vi.useRealTimers());

  it('keeps a credential for 30 minutes from its last send, then forgets it', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 0, 1) });
    const sent = new SentSecrets(KEY);
    const [early, again] = [credential(), credential()];
    sent.add(`Payment ${early}`);
    sent.add(`Payment ${again}`);
    vi.setSystemTime(Date.now() + 20 * 60_000);
    sent.add(`Payment ${again}`); // sent again: 30 minutes from now
    vi.setSystemTime(Date.now() + 15 * 60_000);
    // A merge after the window drops `early`; `again` and the key stay.
    for (let i = 0; i < 4; i++) sent.add(`Payment ${credential()}`);
    expect(sent.redact(`${early} ${again} ${KEY}`)).toBe(`${early} [redacted] [redacted]`);
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
