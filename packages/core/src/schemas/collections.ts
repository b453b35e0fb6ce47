import { z } from 'zod/v4';
import type { Closed } from './closed.js';

const idList = (what: string) =>
  z.array(z.string().min(1)).describe(`Ids of ${what} this clause selects.`);

/** The four selectors every clause carries. */
const clauseSelectors = {
  brand_ids: idList('brands'),
  website_ids: idList('websites (from website search)'),
  category_ids: idList('categories'),
  product_ids: idList('products (from catalog search)'),
};

/** A clause as returned in a Collection. Unknown fields are kept. */
export const ClauseSchema = z.looseObject({
  clause_id: z.string(),
  brand_ids: z.array(z.string()),
  website_ids: z.array(z.string()),
  category_ids: z.array(z.string()),
  product_ids: z.array(z.string()),
});
export type Clause = Closed<z.infer<typeof ClauseSchema>>;

/** A clause to add: the four selectors, no `clause_id` (the service assigns it). */
export const NewClauseSchema = z.strictObject(clauseSelectors);
export type NewClause = z.infer<typeof NewClauseSchema>;

/** A clause to replace: its `clause_id` and the four selectors. */
export const ReplacementClauseSchema = z.strictObject({
  clause_id: z.string().min(1).describe('Id of the existing clause to replace.'),
  ...clauseSelectors,
});
export type ReplacementClause = z.infer<typeof ReplacementClauseSchema>;

/**
 * Body of `PATCH /v1/collections/{collection_id}`. Every field is optional, but at least
 * one must be given: an empty update is refused before anything is sent.
 */
export const CollectionUpdateSchema = z
  .strictObject({
    name: z.string().min(1).optional().describe('New name of the collection.'),
    description: z.string().optional().describe('New description of the collection.'),
    add_clauses: z.array(NewClauseSchema).optional().describe('Clauses to add.'),
    replace_clauses: z
      .array(ReplacementClauseSchema)
      .optional()
      .describe('Clauses to replace, by clause_id.'),
    remove_clause_ids: z.array(z.string().min(1)).optional().describe('Ids of clauses to remove.'),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message:
      'Give at least one of name, description, add_clauses, replace_clauses, remove_clause_ids',
  });
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
export const CollectionIdSchema = z
  .string()
  .min(1)
  .regex(ID_CHARACTERS, {
    message: 'must not contain /, \\, ?, #, %, whitespace, control or invisible format characters',
  })
  .regex(NOT_A_DOT_SEGMENT, { message: 'must not be "." or ".." (a dot segment of the URL path)' })
  .describe('Id of the collection to update.');

/** A Collection, as returned by the update operation. Unknown fields are kept. */
export const CollectionSchema = z.looseObject({
  collection_id: z.string(),
  name: z.string().optional(),
  description: z.string().nullable().optional(),
  clauses: z.array(ClauseSchema).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  user_id: z.string().optional(),
});
export type Collection = Closed<z.infer<typeof CollectionSchema>>;
