import * as z from 'zod/v4/mini';
import type { Closed } from './closed.js';
import { described, schema } from './define.js';

/** Text that is not empty. */
const nonEmpty = () => z.string().check(z.minLength(1));

const idList = (what: string) =>
  described(z.array(nonEmpty()), `Ids of ${what} this clause selects.`);

/** The four selectors every clause carries. */
const clauseSelectors = /* @__PURE__ */ schema(() => ({
  brand_ids: idList('brands'),
  website_ids: idList('websites (from website search)'),
  category_ids: idList('categories'),
  product_ids: idList('products (from catalog search)'),
}));

/** A clause as returned in a Collection. Unknown fields are kept. */
export const ClauseSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    clause_id: z.string(),
    brand_ids: z.array(z.string()),
    website_ids: z.array(z.string()),
    category_ids: z.array(z.string()),
    product_ids: z.array(z.string()),
  }),
);
/** A clause of a collection as the service returns it, with its `clause_id`. */
export type Clause = Closed<z.infer<typeof ClauseSchema>>;

/** A clause to add: the four selectors, no `clause_id` (the service assigns it). */
export const NewClauseSchema = /* @__PURE__ */ schema(() => z.strictObject(clauseSelectors));
/** A clause to add to a collection: its four selectors. */
export type NewClause = z.infer<typeof NewClauseSchema>;

/** A clause to replace: its `clause_id` and the four selectors. */
export const ReplacementClauseSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    clause_id: described(nonEmpty(), 'Id of the existing clause to replace.'),
    ...clauseSelectors,
  }),
);
/** A clause that replaces an existing one: its `clause_id` and four selectors. */
export type ReplacementClause = z.infer<typeof ReplacementClauseSchema>;

/**
 * Body of `PATCH /v1/collections/{collection_id}`. Every field is optional, but at least
 * one must be given: an empty update is refused before anything is sent.
 */
export const CollectionUpdateSchema = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      name: described(z.optional(nonEmpty()), 'New name of the collection.'),
      description: described(z.optional(z.string()), 'New description of the collection.'),
      add_clauses: described(z.optional(z.array(NewClauseSchema)), 'Clauses to add.'),
      replace_clauses: described(
        z.optional(z.array(ReplacementClauseSchema)),
        'Clauses to replace, by clause_id.',
      ),
      remove_clause_ids: described(z.optional(z.array(nonEmpty())), 'Ids of clauses to remove.'),
    })
    .check(
      z.refine((body) => Object.values(body).some((value) => value !== undefined), {
        error:
          'Give at least one of name, description, add_clauses, replace_clauses, remove_clause_ids',
      }),
    ),
);
/** The body of a collection update: at least one of its fields. */
export type CollectionUpdate = z.infer<typeof CollectionUpdateSchema>;

/**
 * Characters a collection id never holds: path and query delimiters (`/`, `\`, `?`, `#`),
 * `%` (a server that decodes the path once more would read `%2F` as `/`), whitespace and
 * control characters (the URL parser drops tabs and newlines), and invisible format characters
 * (a server that strips U+200B or the soft hyphen would read `\u200B..` as `..`). Linear: one
 * class, no nesting.
 */
const ID_CHARACTERS = /^[^\s/\\?#%\p{Cc}\p{Cf}]*$/u;

/** `.` and `..` are dot segments: fetch resolves them away, changing which path is patched. */
const NOT_A_DOT_SEGMENT = /^(?!\.\.?$)/u;

/**
 * Path parameter of the collection update. The contract only says "string"; these rules
 * keep any id to exactly one path segment, `/v1/collections/{id}`, whatever fetch or the
 * service normalises (the id is percent-encoded as well).
 */
export const CollectionIdSchema = /* @__PURE__ */ schema(() =>
  described(
    nonEmpty().check(
      z.regex(ID_CHARACTERS, {
        error:
          'must not contain /, \\, ?, #, %, whitespace, control or invisible format characters',
      }),
      z.regex(NOT_A_DOT_SEGMENT, {
        error: 'must not be "." or ".." (a dot segment of the URL path)',
      }),
    ),
    'Id of the collection to update.',
  ),
);

/** A Collection, as returned by the update operation. Unknown fields are kept. */
export const CollectionSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    collection_id: z.string(),
    name: z.optional(z.string()),
    description: z.optional(z.nullable(z.string())),
    clauses: z.optional(z.array(ClauseSchema)),
    created_at: z.optional(z.string()),
    updated_at: z.optional(z.string()),
    user_id: z.optional(z.string()),
  }),
);
/** A collection as returned by the update operation. */
export type Collection = Closed<z.infer<typeof CollectionSchema>>;
