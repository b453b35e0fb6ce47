/** Arguments the model gives, every field present (null: not given), as strict mode makes it. */
export const searchCatalog = (query: string, extra: Record<string, unknown> = {}) => ({
  query,
  limit: 3,
  cursor: null,
  placements: null,
  ...extra,
});

export const searchWebsites = (query: string, extra: Record<string, unknown> = {}) => ({
  query,
  limit: 2,
  category_ids: null,
  country: null,
  ...extra,
});

export const updateCollection = (collectionId: string, extra: Record<string, unknown> = {}) => ({
  collection_id: collectionId,
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
  ...extra,
});
