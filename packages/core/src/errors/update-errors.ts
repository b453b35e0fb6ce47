import { CatalogError } from './catalog-error.js';

/**
 * A change adding or replacing clauses was not sent: another one to the collection is being
 * sent or ended unknown in the last 10 minutes, and this one could apply an add twice or race.
 */
export class RepeatedUpdateError extends CatalogError {
  static override readonly kind: string = 'RepeatedUpdateError';
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
