import type { ValidationIssue } from '@catalogkit/core';
import { WEBSITE_SEARCH_LIMITS, WebsiteSearchParamsSchema } from '@catalogkit/core/schemas';
import type { Context } from 'hono';
import type { EmulatorContext } from '../context.js';
import { searchWebsites } from '../search/website-search.js';
import { issuesFromZod, PARSE_OPTIONS, validationError } from './errors.js';

const INTEGER = /^-?\d+$/;

/** Query string → the shape the shared schema validates. Repeated and comma-separated `category_ids` both work. */
function rawParams(c: Context): Record<string, unknown> {
  const limit = c.req.query('limit');
  const categories = c.req.queries('category_ids');
  return {
    query: c.req.query('query'),
    limit: limit !== undefined && INTEGER.test(limit) ? Number(limit) : limit,
    category_ids: categories?.flatMap((value) => value.split(',')).filter((value) => value !== ''),
    country: c.req.query('country'),
  };
}

function limitIssue(raw: unknown): ValidationIssue | undefined {
  if (typeof raw !== 'string') return undefined;
  return {
    loc: ['query', 'limit'],
    msg: 'Input should be a valid integer, unable to parse string as an integer',
    type: 'int_parsing',
  };
}

/** 422 items for categories that do not exist or cannot be searched. */
function categoryIssues(
  emulator: EmulatorContext,
  categoryIds: readonly string[],
): ValidationIssue[] {
  return categoryIds.flatMap((slug, index): ValidationIssue[] => {
    const category = emulator.data.categories.get(slug);
    if (!category) {
      return [
        {
          loc: ['query', 'category_ids', index],
          msg: `Unknown category: '${slug}'`,
          type: 'unknown_category',
        },
      ];
    }
    if (!category.searchable) {
      return [
        {
          loc: ['query', 'category_ids', index],
          msg: `Category '${slug}' is not available for search`,
          type: 'unsearchable_category',
        },
      ];
    }
    return [];
  });
}

/** `GET /v1/websites/search`. */
export function websiteSearchHandler(emulator: EmulatorContext) {
  return (c: Context): Response => {
    const raw = rawParams(c);
    const badLimit = limitIssue(raw.limit);
    const parsed = WebsiteSearchParamsSchema.safeParse(
      badLimit ? { ...raw, limit: undefined } : raw,
      PARSE_OPTIONS,
    );
    if (!parsed.success || badLimit) {
      const issues = parsed.success ? [] : issuesFromZod(parsed.error, 'query');
      return validationError(c, badLimit ? [badLimit, ...issues] : issues);
    }
    const categoryIds = parsed.data.category_ids ?? [];
    const badCategories = categoryIssues(emulator, categoryIds);
    if (badCategories.length > 0) return validationError(c, badCategories);
    const websites = searchWebsites(emulator.data, {
      query: parsed.data.query,
      limit: parsed.data.limit ?? WEBSITE_SEARCH_LIMITS.limitDefault,
      categoryIds,
      country: parsed.data.country ?? WEBSITE_SEARCH_LIMITS.defaultCountry,
    });
    return c.json({ websites });
  };
}
