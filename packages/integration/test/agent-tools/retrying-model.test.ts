import { describe, expect, it } from 'vitest';
import { runRetryingModel } from '../../bench/retrying-model.js';

// 300 faulted updates through generateText with a model that repeats every call twice.
// The bound is generous: about 20 s alone, slower with both cores busy.
describe('update_collection under a model that always retries', () => {
  it('applies nothing twice in 300 faulted updates, and never invites a retry', {
    timeout: 240_000,
  }, async () => {
    const report = await runRetryingModel(300);
    expect(report.appliedTwice).toBe(0);
    // Every fault came after the change was made, so each update is held exactly once.
    expect(report.appliedOnce).toBe(300);
    expect(report.requestsSent).toBe(300);
    expect(report.toolCalls).toBe(900);
    expect(report.repeatsNotSent).toBe(600);
    expect(report.toldToRetry).toBe(0);
    expect(report.toldOutcomeUnknown).toBe(300);
    expect(Object.values(report.faults).every((count) => count >= 15)).toBe(true);
  });
});
