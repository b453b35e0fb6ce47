import {
  CatalogClient,
  type CatalogStore,
  ConfigurationError,
  MemoryCatalogStore,
} from '@catalogkit/core';
import { describe, expect, it } from 'vitest';
import { catalogTelemetry } from '../src/index.js';
import { inMemoryOtel } from './support/otel.js';

// L5 (low; a misconfiguration, no attacker). Core checks a store's methods when the client is
// made (b0fddd6: "a JavaScript store lacking a method is a ConfigurationError naming it, before
// any change is sent"). The telemetry's store wrapper defines every method of STORE_METHODS,
// whether or not the wrapped store has it, so a traced store lacking `deleteIfEquals` passes
// the check and fails only when called: a raw TypeError ("reading 'apply'"), thrown synchronously
// from a method typed to return a promise, after update_collection's change was sent.
describe('L5: a traced store lacking a method', () => {
  it('is refused when the client is made, naming the method', async () => {
    const memory = new MemoryCatalogStore();
    const incomplete = {
      get: memory.get.bind(memory),
      set: memory.set.bind(memory),
      setIfAbsent: memory.setIfAbsent.bind(memory),
      delete: memory.delete.bind(memory),
      lock: memory.lock.bind(memory),
    } as unknown as CatalogStore;
    // Without telemetry core refuses it, as b0fddd6 says.
    expect(() => new CatalogClient({ store: incomplete })).toThrow(ConfigurationError);
    const traced = catalogTelemetry(inMemoryOtel()).store(incomplete);
    const made = (() => {
      try {
        return new CatalogClient({ store: traced });
      } catch (error) {
        return error;
      }
    })();
    // Made anyway: the missing method fails only when a call reaches it.
    if (made instanceof CatalogClient) {
      const error = await Promise.resolve()
        .then(() => traced.deleteIfEquals('k', 'v'))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
    }
    expect(made).toBeInstanceOf(ConfigurationError);
    expect(String(made)).toContain('store.deleteIfEquals');
  });
});
