import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConversationTokenManager,
  MemoryCatalogStore,
  type MintedToken,
} from '../src/conversations/index.js';

// `pnpm fuzz` raises the number of runs with CATALOGKIT_FUZZ_RUNS.
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 200;

/*
 * Conversation tokens under any local wall clock (issue 23): skewed either way by up to a
 * day, stepped at random between messages and in the middle of mints, with or without the
 * service's Date header. Every timer, Date and performance.now() are faked; only Date
 * steps (vi.setSystemTime). The service keeps its own clock.
 *
 * Properties: no getToken() fails, no expired token is ever handed out, and mints stay
 * bounded by the token life (never one per message).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const SERVICE_EPOCH = Date.UTC(2026, 0, 1, 9);

const serviceNow = () => SERVICE_EPOCH + performance.now();

interface Scenario {
  skewMs: number;
  ttlSeconds: number;
  sendDate: boolean;
  marginMs: number;
  messages: { gapMs: number; stepMs: number; stepDuringMint: number }[];
  sharedStore: boolean;
}

const wallStep = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
  fc.constantFrom(HOUR, -HOUR, 90 * MINUTE, -90 * MINUTE),
);

const scenarios: fc.Arbitrary<Scenario> = fc.record({
  skewMs: fc.oneof(
    fc.integer({ min: -24 * HOUR, max: 24 * HOUR }),
    fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
    fc.constantFrom(0, 90 * MINUTE, -90 * MINUTE),
  ),
  ttlSeconds: fc.oneof(fc.integer({ min: 60, max: 7200 }), fc.constantFrom(60, 300, 1800)),
  sendDate: fc.boolean(),
  marginMs: fc.integer({ min: 0, max: 10 * MINUTE }),
  messages: fc.array(
    fc.record({
      gapMs: fc.integer({ min: 0, max: 20 * MINUTE }),
      stepMs: wallStep,
      stepDuringMint: wallStep,
    }),
    { minLength: 1, maxLength: 60 },
  ),
  sharedStore: fc.boolean(),
});

/** The service's tokens, on its own clock; a mint may step the local wall clock meanwhile. */
function tokenService(scenario: Scenario) {
  const expiries = new Map<string, number>();
  const state = { mints: 0, expiredUses: 0, stepDuringMint: 0 };
  const mint = async (): Promise<MintedToken> => {
    state.mints += 1;
    const token = `tok_${state.mints}`;
    const now = serviceNow();
    const expiresAt = now + scenario.ttlSeconds * SECOND;
    expiries.set(token, expiresAt);
    if (state.stepDuringMint !== 0) vi.setSystemTime(Date.now() + state.stepDuringMint);
    return {
      token,
      expiresAt: new Date(expiresAt).toISOString(),
      ...(scenario.sendDate ? { serverDate: new Date(now).toUTCString() } : {}),
      ttlSeconds: scenario.ttlSeconds,
    };
  };
  const use = (token: string) => {
    const expiresAt = expiries.get(token);
    if (expiresAt === undefined || serviceNow() >= expiresAt) state.expiredUses += 1;
  };
  return { state, mint, use };
}

/**
 * The most mints a chat of `elapsedMs` may cost: a token is held at least half its ttl
 * (a clock far ahead, see holdMintedToken), less a second for the Date header's rounding,
 * and refreshed at most its capped margin early; never more than one per message.
 */
function mintBound(scenario: Scenario, elapsedMs: number): number {
  const shortestLife = (scenario.ttlSeconds * SECOND) / 2 - SECOND;
  const interval = shortestLife - Math.min(scenario.marginMs, shortestLife / 2);
  return Math.min(scenario.messages.length, Math.floor(elapsedMs / interval) + 1);
}

async function chat(scenario: Scenario): Promise<void> {
  vi.useFakeTimers({ now: SERVICE_EPOCH + performance.now() + scenario.skewMs });
  const service = tokenService(scenario);
  const store = scenario.sharedStore ? new MemoryCatalogStore() : undefined;
  const managers = [0, 1].map(
    () =>
      new ConversationTokenManager({
        mint: service.mint,
        refreshMarginMs: scenario.marginMs,
        ...(store ? { store, key: 'chat:fuzz' } : {}),
      }),
  );
  let elapsedMs = 0;
  try {
    for (const [index, message] of scenario.messages.entries()) {
      service.state.stepDuringMint = message.stepDuringMint;
      // With a shared store, two instances take turns, as two serverless invocations would.
      const manager = managers[store ? index % 2 : 0] as ConversationTokenManager;
      service.use(await manager.getToken());
      vi.setSystemTime(Date.now() + message.stepMs);
      await vi.advanceTimersByTimeAsync(message.gapMs);
      elapsedMs += message.gapMs;
    }
  } finally {
    for (const manager of managers) manager.close();
    vi.useRealTimers();
  }
  expect(service.state.expiredUses).toBe(0);
  expect(service.state.mints).toBeLessThanOrEqual(mintBound(scenario, elapsedMs));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('conversation tokens under a skewed and stepping wall clock', () => {
  it('never hand out an expired token, never fail, and mint at most once per token life', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(fc.asyncProperty(scenarios, chat), { numRuns: RUNS });
  });
});
