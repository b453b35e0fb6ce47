import type { z } from 'zod/v4';
import {
  AFFILIATE_PLACEMENT,
  CatalogPaginationSchema,
  CatalogQuerySchema,
} from '../../schemas/catalog.js';
import { schema } from '../../schemas/define.js';
import { TOOL_RESULT_LIMIT_MAX } from '../limits.js';
import { integerText, listOf, oneOf, trimmed } from './coerce.js';
import { choice, exactObject, list, modelInput, text, wholeNumber } from './fields.js';

const PLACEMENTS = [AFFILIATE_PLACEMENT] as const;

/**
 * Arguments the model gives `search_catalog`. The JSON Schema lists every field (null means
 * "not given"); a model may also leave optional fields out, send `"5"` for 5, `"affiliate"`
 * for `["affiliate"]` or any letter case.
 */
export const SearchCatalogInputSchema = /* @__PURE__ */ schema(() =>
  modelInput(
    {
      query: trimmed,
      limit: integerText,
      cursor: trimmed,
      placements: listOf(oneOf(PLACEMENTS)),
    },
    exactObject({
      query: text({
        what: 'what the shopper wants, in plain words',
        empty: 'say what the shopper wants, in plain words',
        rule: CatalogQuerySchema.shape.query,
      }).describe('What the shopper wants, in plain words, e.g. "waterproof trail running shoes".'),
      limit: wholeNumber(1, TOOL_RESULT_LIMIT_MAX, 'or null for the default')
        .nullable()
        .describe(
          `How many products to return, 1 to ${TOOL_RESULT_LIMIT_MAX}; null for the default.`,
        ),
      cursor: text({
        what: 'the cursor printed after a previous page',
        empty: 'use null for the first page',
        rule: CatalogPaginationSchema.shape.cursor,
      })
        .nullable()
        .describe(
          'The cursor printed after a previous page of the same query, to get the next page; null for the first page.',
        ),
      placements: list(choice(PLACEMENTS, 'or null for the default'), 'placements')
        .nullable()
        .describe(
          '["affiliate"] to get the commission on each product (needs an API key); null for the default.',
        ),
    }),
  ),
);
/** The input of `search_catalog` once validated: every field present, `null` meaning "not given". */
export type SearchCatalogInput = z.output<typeof SearchCatalogInputSchema>;
