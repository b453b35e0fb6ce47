import { CatalogError } from './catalog-error.js';

/**
 * A collection change that adds or replaces clauses was not sent: another such change to the
 * same collection is being sent, or ended with an unknown outcome (it may be in place),
 * within the last 10 minutes. Sending this one could apply an add twice (when it repeats one
 * of `pendingAdds`, in any shape) or race it. Nothing was sent, so `outcomeUnknown` is false.
 */
export class RepeatedUpdateError extends CatalogError {
  static override readonly kind: string = 'RepeatedUpdateError';
  /** The collection the update was for. */
  readonly collectionId: string;
  /** What the change of unknown outcome adds or replaces with, as `kind:id` (`product_ids:p1`). */
  readonly pendingAdds: readonly string[];
  /** The adds of the refused change that repeat one of `pendingAdds`. */
  readonly repeatedAdds: readonly string[];

  constructor(
    collectionId: string,
    pendingAdds: readonly string[],
    repeatedAdds: readonly string[],
  ) {
    super(
      'repeated_update',
      `A change adding or replacing clauses of collection ${collectionId} is being sent or has an unknown outcome; this change${repeatedAdds.length ? ', which repeats some of its selectors,' : ''} was not sent`,
    );
    this.collectionId = collectionId;
    this.pendingAdds = pendingAdds;
    this.repeatedAdds = repeatedAdds;
  }
}
