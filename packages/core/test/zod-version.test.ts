import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import * as zm from 'zod/v4/mini';

// zod 3.25's `zod/v4` entry reports core version 4.0.0; zod 4.x itself reports 4.1+.
// The zod 3.25 run (vitest.zod3.config.ts) sets CATALOGKIT_ZOD=3 so that this test fails if
// its alias stops applying and the suite silently runs on zod 4 again.
describe('zod under test', () => {
  it('is the package this run means to test', () => {
    const { major, minor }: { major: number; minor: number } = z.core.version;
    const fromZod3 = major === 4 && minor === 0;
    expect(fromZod3).toBe(process.env.CATALOGKIT_ZOD === '3');
  });

  it('gives the wire schemas (zod mini) from the same package as classic zod', () => {
    // The wire schemas import `zod/v4/mini`: a run that aliases only `zod/v4` would test
    // them on another zod than the one it means to.
    expect(zm.core.version).toEqual(z.core.version);
    expect(zm.core.globalConfig).toBe(z.core.globalConfig);
  });
});
