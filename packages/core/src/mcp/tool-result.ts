import { CatalogToolError } from '../errors/mcp-errors.js';
import { ProtocolError } from '../errors/transport-errors.js';
import type { Redactor } from '../http/redact.js';
import { parseResponse, parseServerJson } from '../http/response-body.js';
import { isRecord } from '../is-record.js';
import {
  CATALOG_LIMIT_MAX,
  CATALOG_VARIANTS_MAX,
  type CatalogSearchResult,
  CatalogSearchResultSchema,
} from '../schemas/catalog.js';
import { type ToolCallResult, ToolCallResultSchema } from '../schemas/mcp.js';

const OPERATION = 'catalog.search';

function textsOf(items: readonly unknown[], field: 'text' | 'content'): string[] {
  return items.flatMap((item) => {
    const value = (item as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' ? [value] : [];
  });
}

/** The failure texts of an `isError` result: `structuredContent.messages`, then text content. */
function toolMessages(tool: ToolCallResult): string[] {
  const structured = tool.structuredContent as { messages?: unknown } | undefined;
  const messages: unknown[] = Array.isArray(structured?.messages) ? structured.messages : [];
  const texts = (tool.content ?? []).filter((item) => item.type === 'text');
  return [...textsOf(messages, 'content'), ...textsOf(texts, 'text')];
}

/** `structuredContent`, or (older servers) the JSON copy in the first text content. */
function structuredPayload(tool: ToolCallResult): unknown {
  if (tool.structuredContent !== undefined) return tool.structuredContent;
  const text = tool.content?.find((item) => item.type === 'text')?.text;
  if (typeof text === 'string') {
    try {
      return parseServerJson(text);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      // Plain prose, not a JSON copy: reported below as a missing structuredContent.
    }
  }
  throw new ProtocolError(`${OPERATION}: the tool result has no structuredContent`);
}

/**
 * The answer cut to what was asked for: at most `limit` products and
 * {@link CATALOG_VARIANTS_MAX} variants each, the rest dropped (trimmed, not refused). Done
 * before anything reads the products, so the model's text, `structuredContent` and the
 * storefront's cards are all bounded by construction. Never mutates the parsed value.
 */
function bounded(payload: unknown, limit: number): unknown {
  if (!isRecord(payload) || !Array.isArray(payload.products)) return payload;
  const { products } = payload;
  const kept = products.length > limit ? products.slice(0, limit) : products;
  let changed = kept !== products;
  const trimmed = kept.map((product: unknown) => {
    if (!isRecord(product) || !Array.isArray(product.variants)) return product;
    if (product.variants.length <= CATALOG_VARIANTS_MAX) return product;
    changed = true;
    return { ...product, variants: product.variants.slice(0, CATALOG_VARIANTS_MAX) };
  });
  return changed ? { ...payload, products: trimmed } : payload;
}

/**
 * The catalog result of a `tools/call` result: a CatalogToolError for `isError`, else
 * `structuredContent` parsed leniently (unknown fields kept, buy links untouched), at most
 * `limit` products (see {@link bounded}). A result
 * that already is what zod would return (the usual answer) is used as JSON.parse made it:
 * the answer check (validation/schema-check.ts) spares zod's copy of every product.
 */
export function toCatalogResult(
  result: unknown,
  redact: Redactor,
  limit: number = CATALOG_LIMIT_MAX,
): CatalogSearchResult {
  const tool = parseResponse(ToolCallResultSchema, result, OPERATION);
  if (tool.isError) {
    throw new CatalogToolError(redact(toolMessages(tool)), redact(tool.content ?? []));
  }
  const payload = bounded(structuredPayload(tool), limit);
  return parseResponse(CatalogSearchResultSchema, payload, OPERATION);
}
