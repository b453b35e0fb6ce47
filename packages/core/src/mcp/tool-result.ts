import type * as z from 'zod/v4/core';
import { CatalogToolError } from '../errors/mcp-errors.js';
import { ProtocolError } from '../errors/transport-errors.js';
import type { Redactor } from '../http/redact.js';
import { parseResponse, parseServerJson } from '../http/response-body.js';
import { isRecord } from '../is-record.js';
import { CATALOG_VARIANTS_MAX } from '../schemas/catalog.js';
import { type ToolCallResult, ToolCallResultSchema } from '../schemas/mcp.js';

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
function structuredPayload(tool: ToolCallResult, operation: string): unknown {
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
  throw new ProtocolError(`${operation}: the tool result has no structuredContent`);
}

/** The product with at most {@link CATALOG_VARIANTS_MAX} variants (the same value when it has no more). */
function boundedProduct(product: unknown): unknown {
  if (!isRecord(product) || !Array.isArray(product.variants)) return product;
  const { variants } = product;
  if (variants.length <= CATALOG_VARIANTS_MAX) return product;
  return { ...product, variants: variants.slice(0, CATALOG_VARIANTS_MAX) };
}

/**
 * The answer cut to what was asked for (trimmed, not refused): at most `limit` products and
 * {@link CATALOG_VARIANTS_MAX} variants each. A `single` tool's product is its one `product`:
 * a `products` beside it is dropped, so every reader (model text, buy links, storefront)
 * sees the same bounded products. Never mutates the parsed value.
 */
function bounded(payload: unknown, limit: number, single: boolean): unknown {
  if (!isRecord(payload)) return payload;
  if (single) {
    const { products: _notItsField, ...rest } = payload;
    return 'product' in rest ? { ...rest, product: boundedProduct(rest.product) } : rest;
  }
  if (!Array.isArray(payload.products)) return payload;
  const { products } = payload;
  // The usual answer is within bounds: returned as it is, nothing allocated.
  if (products.length <= limit && products.every((item) => boundedProduct(item) === item)) {
    return payload;
  }
  return { ...payload, products: products.slice(0, limit).map(boundedProduct) };
}

/**
 * The catalog result of a `tools/call` result: a CatalogToolError for `isError`, else its
 * `structuredContent`, bounded, parsed leniently with `call.result` (unknown fields kept,
 * buy links untouched).
 */
export function toCatalogResult<S extends z.$ZodType>(
  call: { operation: string; tool: string; result: S; single?: boolean },
  result: unknown,
  redact: Redactor,
  limit: number,
): z.output<S> {
  const { operation } = call;
  const tool = parseResponse(ToolCallResultSchema, result, operation);
  if (tool.isError) {
    const messages = redact(toolMessages(tool));
    throw new CatalogToolError(messages, redact(tool.content ?? []), call.tool);
  }
  const payload = bounded(structuredPayload(tool, operation), limit, call.single === true);
  return parseResponse(call.result, payload, operation);
}
