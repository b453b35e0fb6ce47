import { CatalogError } from './catalog-error.js';

/**
 * A repeat of a collection update whose earlier call may have been applied (it timed out,
 * lost its connection after sending, got a 5xx or a truncated answer, or is still unanswered
 * in another instance past its time). It was not sent again, since it could apply twice;
 * `cause` is the earlier call's error, or (when that call ran in another instance sharing
 * the store) an error naming its kind.
 */
export class RepeatedUpdateError extends CatalogError {
  static override readonly kind: string = 'RepeatedUpdateError';
  override readonly outcomeUnknown = true;
  /** The collection the update was for. */
  readonly collectionId: string;

  constructor(collectionId: string, cause: unknown) {
    super(
      'repeated_update',
      `An identical update of collection ${collectionId} was already sent and its outcome is unknown; it was not sent again`,
      { cause },
    );
    this.collectionId = collectionId;
  }
}
