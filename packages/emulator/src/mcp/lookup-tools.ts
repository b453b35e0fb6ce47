import type { GetProductArguments, LookupCatalogArguments } from '@catalogkit/core/schemas';
import type { CatalogData, ProductRecord, VariantRecord } from '../data/index.js';
import { pageKey } from '../data/index.js';
import { type Caller, productForCaller, UCP_VERSION } from './search-tool.js';

type Match = 'exact' | 'featured';
type Option = { name: string; label: string };

const notFound = (content: string, type = 'info') => ({ type, code: 'not_found', content });

/** One product of a lookup: the offers the inputs resolved to, each with its `inputs`. */
interface Found {
  product: ProductRecord;
  variants: Map<string, { variant: VariantRecord; inputs: { id: string; match: Match }[] }>;
}

function resolve(
  found: Map<string, Found>,
  product: ProductRecord,
  variants: readonly VariantRecord[],
  input: { id: string; match: Match },
): void {
  let entry = found.get(product.id);
  if (!entry) {
    entry = { product, variants: new Map() };
    found.set(product.id, entry);
  }
  for (const variant of variants) {
    const slot = entry.variants.get(variant.id) ?? { variant, inputs: [] };
    slot.inputs.push(input);
    entry.variants.set(variant.id, slot);
  }
}

/**
 * `lookup_catalog`: a product id resolves to the product with all its offers (`featured`,
 * as this service's lookup returns every retailer's offer), an offer id or a retailer page
 * URL to that one offer (`exact`). Duplicates are read once, each product returned once;
 * what is unknown is a `not_found` message, an URL given in `ids` a `use_catalog_urls` one.
 */
export function lookupCatalogResult(
  data: CatalogData,
  args: LookupCatalogArguments,
  caller: Caller,
  origin?: string,
) {
  const found = new Map<string, Found>();
  const messages: { type: string; code: string; content: string }[] = [];
  for (const id of new Set(args.catalog.ids ?? [])) {
    const product = data.productById.get(id);
    const offer = data.variantById.get(id);
    if (product) resolve(found, product, product.variants, { id, match: 'featured' });
    else if (offer) resolve(found, offer.product, [offer.variant], { id, match: 'exact' });
    else if (/^https?:\/\//i.test(id))
      messages.push({ type: 'warning', code: 'use_catalog_urls', content: id });
    else messages.push(notFound(id));
  }
  for (const url of new Set(args.catalog.urls ?? [])) {
    const offer = data.variantByPage.get(pageKey(url) ?? '');
    if (offer) resolve(found, offer.product, [offer.variant], { id: url, match: 'exact' });
    else messages.push(notFound(url));
  }
  const products = [...found.values()].map(({ product, variants }) => {
    const kept = [...variants.values()];
    const record = {
      ...product,
      variants: kept.map(({ variant, inputs }) => ({ ...variant, inputs })),
    };
    return productForCaller(data, record, caller, {
      withPlacement: false,
      ...(origin ? { origin } : {}),
    });
  });
  return { ucp: { version: UCP_VERSION }, products, ...(messages.length ? { messages } : {}) };
}

const matches = (variant: VariantRecord, selected: readonly Option[]) =>
  selected.every((want) =>
    variant.options.some((o) => o.name === want.name && o.label === want.label),
  );

/**
 * The selections kept after relaxation (UCP): while no offer matches them all, drop first
 * the options not in `preferences`, then the preferences from the end.
 */
function relax(
  variants: readonly VariantRecord[],
  selected: readonly Option[],
  preferences: readonly string[],
): Option[] {
  const rank = (option: Option) => {
    const index = preferences.indexOf(option.name);
    return index === -1 ? Number.POSITIVE_INFINITY : index;
  };
  const kept = [...selected].sort((a, b) => rank(a) - rank(b));
  while (kept.length > 0 && !variants.some((variant) => matches(variant, kept))) kept.pop();
  return kept;
}

/** `product.options` with UCP availability signals relative to the effective selections. */
function optionsWithAvailability(variants: readonly VariantRecord[], selected: Option[]) {
  const names = [...new Set(variants.flatMap((v) => v.options.map((o) => o.name)))];
  return names.map((name) => {
    const others = selected.filter((option) => option.name !== name);
    const labels = [...new Set(variants.flatMap((v) => v.options.filter((o) => o.name === name)))];
    const values = [...new Set(labels.map((o) => o.label))].map((label) => {
      const fitting = variants.filter((v) => matches(v, [...others, { name, label }]));
      return {
        label,
        exists: fitting.length > 0,
        available: fitting.some((v) => v.availability.available),
      };
    });
    return { name, values };
  });
}

/**
 * `get_product`: one product by product or offer id. An offer id comes first and fixes the
 * selection; a product id gives the offers matching `selected` (relaxed per `preferences`).
 * Unknown: no `product`, `ucp.status: "error"` and a `not_found` message (UCP), in a
 * successful result.
 */
export function getProductResult(
  data: CatalogData,
  args: GetProductArguments,
  caller: Caller,
  origin?: string,
) {
  const { id, selected = [], preferences = [] } = args.catalog;
  const offer = data.variantById.get(id);
  const product = data.productById.get(id) ?? offer?.product;
  if (!product) {
    return {
      ucp: { version: UCP_VERSION, status: 'error' },
      messages: [notFound(`No product or offer with id ${id}.`, 'error')],
    };
  }
  const effective = offer ? offer.variant.options : relax(product.variants, selected, preferences);
  const fitting = product.variants.filter((variant) => matches(variant, effective));
  const variants = offer ? [offer.variant, ...fitting.filter((v) => v !== offer.variant)] : fitting;
  const record = {
    ...product,
    options: optionsWithAvailability(product.variants, effective),
    selected: effective,
    variants,
  };
  return {
    ucp: { version: UCP_VERSION },
    product: productForCaller(data, record, caller, {
      withPlacement: false,
      ...(origin ? { origin } : {}),
    }),
  };
}
