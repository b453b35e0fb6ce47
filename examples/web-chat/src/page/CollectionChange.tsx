import type { UpdateCollectionInput } from '@catalogkit/core';
import type { ShopPart } from './messages.js';

type UpdatePart = Extract<ShopPart, { type: 'tool-update_collection' }>;

function productIds(input: UpdateCollectionInput | undefined): string[] {
  return (input?.add_clauses ?? []).flatMap((clause) => clause.product_ids);
}

/**
 * The collection update: Approve and Deny while it waits, then what happened. Nothing is
 * changed before Approve; Deny tells the model the shopper said no.
 */
export function CollectionChange(props: {
  part: UpdatePart;
  /** Product titles by id, from the searches so far, so the shopper sees names, not ids. */
  titles: ReadonlyMap<string, string>;
  /** Collection names by id (known to the app or returned earlier); the id is the fallback. */
  collections: ReadonlyMap<string, string>;
  respond: (answer: { id: string; approved: boolean; reason?: string }) => void;
}) {
  const { part } = props;
  const names = productIds(part.input as UpdateCollectionInput | undefined).map(
    (id) => props.titles.get(id) ?? id,
  );
  const collectionId = (part.input as UpdateCollectionInput | undefined)?.collection_id;
  const target = collectionId
    ? (props.collections.get(collectionId) ?? collectionId)
    : 'your collection';
  const items = <strong>{names.length > 0 ? names.join(' and ') : 'these items'}</strong>;
  const summary = (
    <p>
      Add {items} to <strong>{target}</strong>
    </p>
  );
  switch (part.state) {
    case 'approval-requested':
      return (
        <div className="approval">
          <p className="approval-title">Change your collection?</p>
          {summary}
          <div className="approval-actions">
            <button
              type="button"
              className="approve"
              onClick={() => props.respond({ id: part.approval.id, approved: true })}
            >
              Approve
            </button>
            <button
              type="button"
              className="deny"
              onClick={() =>
                props.respond({
                  id: part.approval.id,
                  approved: false,
                  reason: 'The shopper denied the change.',
                })
              }
            >
              Deny
            </button>
          </div>
        </div>
      );
    case 'approval-responded':
      return (
        <p className="tool-note">{part.approval.approved ? 'Approved, saving…' : 'Denied.'}</p>
      );
    case 'output-available':
      return (
        <div className="approval done">
          <p className="approval-title">Saved to “{part.output.response.name ?? target}”</p>
          <p>Added {items}</p>
        </div>
      );
    case 'output-denied':
      return (
        <div className="approval denied">
          <p className="approval-title">Not changed: you denied it</p>
          <p>Nothing was added to {target}.</p>
        </div>
      );
    case 'output-error':
      return <p className="tool-error">The collection was not changed: {part.errorText}</p>;
    default:
      return <p className="tool-note">Preparing a change to {target}…</p>;
  }
}
