import type { z } from 'zod/v4';
import { isRecord } from '../../is-record.js';
import {
  GET_PRODUCT_TOOL,
  type GetProductResult,
  type ProductSelection,
} from '../../schemas/catalog-lookup.js';
import { schema } from '../../schemas/define.js';
import { catalogViewLegend, noticeLines, productSection } from '../catalog-view.js';
import { type CatalogToolResult, defineCatalogTool } from '../definition.js';
import { exactObject, list, listOf, modelInput, text } from '../model-input.js';

/** Arguments the model gives `get_product`: the product, options chosen, their priority. */
export const GetProductInputSchema = /* @__PURE__ */ schema(() =>
  modelInput(
    exactObject({
      product_id: text('the product_id').describe('The product_id exactly as printed.'),
      selected: list(
        exactObject({ name: text('the option name'), label: text('the option value') }),
        'options as {"name","label"}',
      )
        .nullable()
        .describe(
          'Options the shopper chose, e.g. [{"name":"Color","label":"Black"}]; null for none.',
        ),
      preferences: list(text('an option name'), 'option names')
        .nullable()
        .describe('Option names in the order they matter most, e.g. ["Color"]; null for none.'),
    }),
    { selected: listOf(undefined, { lone: false }), preferences: listOf() },
  ),
);
/** The input of `get_product` once validated; `null` means "not given". */
export type GetProductInput = z.output<typeof GetProductInputSchema>;

/** What the application gets from `get_product`: the selection sent, the answer, the tier. */
export type GetProductOutput = Required<CatalogToolResult<ProductSelection, GetProductResult>>;

/** Most options, and most values per option, the model reads (the rest are counted). */
const OPTIONS_SHOWN = 20;
const more = (total: number) => (total > OPTIONS_SHOWN ? ` and ${total - OPTIONS_SHOWN} more` : '');

/** `Color: Black, Red (out of stock)`: an option's values with their availability, if sent. */
function optionLine(option: unknown): string | undefined {
  if (!isRecord(option) || typeof option.name !== 'string' || !Array.isArray(option.values)) {
    return undefined;
  }
  // A value without a text label says nothing the model could choose: skipped.
  const labelled = option.values.filter(
    (value): value is Record<string, unknown> => isRecord(value) && typeof value.label === 'string',
  );
  const values = labelled.slice(0, OPTIONS_SHOWN).map((value) => {
    const note =
      value.exists === false ? ' (no offer)' : value.available === false ? ' (out of stock)' : '';
    return `${String(value.label)}${note}`;
  });
  return `${option.name}: ${values.join(', ')}${more(labelled.length)}`;
}

function optionLines(options: readonly unknown[]): string[] {
  const lines = options.flatMap((option) => optionLine(option) ?? []);
  const extra = more(lines.length);
  return [...lines.slice(0, OPTIONS_SHOWN), ...(extra ? [`Options:${extra}`] : [])];
}

/** `get_product`: one product's offers, narrowed by the options the shopper chose. */
export const getProductTool = /* @__PURE__ */ defineCatalogTool<
  GetProductInput,
  GetProductOutput,
  'get_product'
>({
  name: GET_PRODUCT_TOOL,
  description: (names, buyLinks) =>
    [
      `Details of one product by its product_id (from ${names.search_catalog}): its offers with current prices, availability and buy links, and its options (e.g. Color) with the values in stock.`,
      'Use it when the shopper asks about a specific product; pass the options they chose in selected to see only matching offers.',
      catalogViewLegend(buyLinks),
    ].join(' '),
  inputSchema: GetProductInputSchema,
  mutates: false,
  async execute(input, { client, signal }) {
    const { selected, preferences } = input;
    const request: ProductSelection = {
      id: input.product_id,
      ...(selected?.length ? { selected } : {}),
      ...(preferences?.length ? { preferences } : {}),
    };
    const { result, tier } = await client.catalog.getProduct(request, signal ? { signal } : {});
    return { request, response: result, tier };
  },
  toModelOutput: ({ request, response, tier }, buyLinks) => {
    const { product } = response;
    const chosen = (product?.selected ?? []).map((option) => `${option.name} ${option.label}`);
    return [
      product
        ? `Product ${product.id}${chosen.length ? ` (selected: ${chosen.join(', ')})` : ''}:`
        : `No product ${request.id}.`,
      ...noticeLines(tier, response.messages),
      ...optionLines(product?.options ?? []),
      ...(product ? productSection([product], buyLinks) : []),
    ].join('\n');
  },
  modelFieldName: (wirePath) =>
    wirePath.replace(/^catalog\.id\b/, 'product_id').replace(/^catalog\./, ''),
});
