import * as z from 'zod/v4/mini';
import { type Closed, schema } from './define.js';

const nonEmpty = () => z.string().check(z.minLength(1));

/** The four selectors of a clause (ids of brands, websites, categories, products), in the order views print them. */
export const SELECTOR_KEYS = ['brand_ids', 'website_ids', 'category_ids', 'product_ids'] as const;

/** The four selectors every clause carries. */
const selectors = <T extends z.core.$ZodType>(id: () => T) => ({
  brand_ids: z.array(id()),
  website_ids: z.array(id()),
  category_ids: z.array(id()),
  product_ids: z.array(id()),
});

/**
 * Body of `PATCH /v1/collections/{collection_id}`. Every field is optional, but at least
 * one must be given: an empty update is refused before anything is sent.
 */
export const CollectionUpdateSchema = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      name: z.optional(nonEmpty()),
      description: z.optional(z.string()),
      add_clauses: z.optional(z.array(z.strictObject(selectors(nonEmpty)))),
      replace_clauses: z.optional(
        z.array(z.strictObject({ clause_id: nonEmpty(), ...selectors(nonEmpty) })),
      ),
      remove_clause_ids: z.optional(z.array(nonEmpty())),
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
/** A clause to add to a collection: its four selectors (the service assigns its `clause_id`). */
export type NewClause = NonNullable<CollectionUpdate['add_clauses']>[number];
/** A clause that replaces an existing one: its `clause_id` and four selectors. */
export type ReplacementClause = NonNullable<CollectionUpdate['replace_clauses']>[number];

/**
 * Path parameter of the collection update: the contract only says "string"; these rules keep
 * any id to exactly one path segment, `/v1/collections/{id}`, whatever fetch or the service
 * normalises (the id is percent-encoded as well). Refused: path and query delimiters, `%` (a
 * server that decodes once more reads `%2F` as `/`), whitespace and control characters (the
 * URL parser drops tabs and newlines), invisible format characters (a server stripping
 * U+200B reads `\u200B..` as `..`), and the dot segments `.` and `..` (fetch resolves them).
 */
export const CollectionIdSchema = /* @__PURE__ */ schema(() =>
  nonEmpty().check(
    z.regex(/^[^\s/\\?#%\p{Cc}\p{Cf}]*$/u, {
      error: 'must not contain /, \\, ?, #, %, whitespace, control or invisible format characters',
    }),
    z.regex(/^(?!\.\.?$)/u, { error: 'must not be "." or ".." (a dot segment of the URL path)' }),
  ),
);

/** A Collection, as returned by the update operation. Unknown fields are kept. */
export const CollectionSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    collection_id: z.string(),
    name: z.optional(z.string()),
    description: z.optional(z.nullable(z.string())),
    clauses: z.optional(z.array(z.looseObject({ clause_id: z.string(), ...selectors(z.string) }))),
    created_at: z.optional(z.string()),
    updated_at: z.optional(z.string()),
    user_id: z.optional(z.string()),
  }),
);
/** A collection as returned by the update operation. */
export type Collection = Closed<z.infer<typeof CollectionSchema>>;
/** A clause of a collection as the service returns it, with its `clause_id`. */
export type Clause = NonNullable<Collection['clauses']>[number];
