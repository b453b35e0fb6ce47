import type { CatalogConnection } from '../cli/connection.js';
import type { AgentEvent } from './events.js';
import { CollectionToolOutputSchema } from './tool-outputs.js';

/**
 * The collection after the run's last successful update: read back from the emulator's own
 * state when the run used the emulator (proof that the change landed), else as the
 * update's result reported it. Undefined when nothing was updated.
 */
export function collectionAfterUpdate(
  updateOutputs: readonly unknown[],
  connection: CatalogConnection,
): Extract<AgentEvent, { type: 'collection-after' }> | undefined {
  const parsed = CollectionToolOutputSchema.safeParse(updateOutputs.at(-1));
  if (!parsed.success) return undefined;
  const fromState = connection.readCollection?.(parsed.data.response.collection_id);
  return fromState
    ? { type: 'collection-after', collection: fromState, source: 'emulator state' }
    : {
        type: 'collection-after',
        collection: parsed.data.response,
        source: 'update_collection result',
      };
}
