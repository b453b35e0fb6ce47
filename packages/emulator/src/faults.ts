import { SeededRandom } from './random.js';

/**
 * One fault to inject. Faults are off until set; each rule applies to the routes it
 * names (stats names such as `PATCH /v1/collections/:collection_id` or
 * `POST /mcp tools/call`), or to every route when `routes` is omitted.
 */
export interface FaultRule {
  /** Routes the rule applies to; every route when omitted. */
  routes?: string[];
  /** Apply only to the next N matching requests, then stop (deterministic tests). */
  times?: number;
  /** Probability (0..1) that a matching request is faulted, drawn from a seeded PRNG. Default 1. */
  rate?: number;
  /** Delay before handling, in milliseconds. */
  latencyMs?: number;
  /** Answer this status with a `{ detail }` body instead of handling the request. */
  status?: number;
  /** `Retry-After` header (seconds) sent with `status`. */
  retryAfterSeconds?: number;
  /**
   * Destroy the connection: `'before'` handling (nothing applied) or `'after'` handling
   * (the change is applied, the answer is lost).
   */
  drop?: 'before' | 'after';
  /** Handle the request, then send the headers and half the body, and close the connection. */
  truncate?: boolean;
}

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

/** Run-time switch for fault injection on one emulator instance. */
export class FaultController {
  private rules: ActiveRule[] = [];
  private readonly random: SeededRandom;

  constructor(seed: number, initial?: FaultRule | FaultRule[]) {
    this.random = new SeededRandom(seed);
    if (initial) this.set(initial);
  }

  /** Replaces the active rules (first matching rule wins). */
  set(rules: FaultRule | FaultRule[]): void {
    const list = Array.isArray(rules) ? rules : [rules];
    for (const rule of list) validateRule(rule);
    this.rules = list.map((rule) => ({
      rule: { ...rule },
      remaining: rule.times ?? Number.POSITIVE_INFINITY,
    }));
  }

  /** Turns every fault off. */
  clear(): void {
    this.rules = [];
  }

  /** The rules still active (a `times` rule disappears once used up). */
  get active(): FaultRule[] {
    return this.rules.filter((entry) => entry.remaining > 0).map((entry) => ({ ...entry.rule }));
  }

  /** @internal The fault for a request on these routes, if any; uses up one of its `times`. */
  take(routes: readonly string[]): FaultRule | undefined {
    for (const entry of this.rules) {
      if (entry.remaining <= 0) continue;
      const { rule } = entry;
      if (rule.routes && !rule.routes.some((route) => routes.includes(route))) continue;
      if (rule.rate !== undefined && this.random.next() >= rule.rate) continue;
      entry.remaining -= 1;
      return rule;
    }
    return undefined;
  }
}

function validateRule(rule: FaultRule): void {
  if (rule.rate !== undefined && !(rule.rate >= 0 && rule.rate <= 1)) {
    throw new RangeError(`fault rate must be between 0 and 1, got ${rule.rate}`);
  }
  if (
    rule.status !== undefined &&
    !(Number.isInteger(rule.status) && rule.status >= 400 && rule.status <= 599)
  ) {
    throw new RangeError(
      `fault status must be an HTTP error status (400..599), got ${rule.status}`,
    );
  }
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 1)) {
    throw new RangeError(`fault times must be a positive integer, got ${rule.times}`);
  }
  if (rule.latencyMs !== undefined && !(rule.latencyMs >= 0)) {
    throw new RangeError(`fault latencyMs must be >= 0, got ${rule.latencyMs}`);
  }
}
