import { createCatalogToolList } from '@catalogkit/core';
import type { RunningEmulator } from '@catalogkit/emulator';
import { type BuyLinkMode, resolveBuyLinks } from '@catalogkit/links';
import { countTokens } from 'gpt-tokenizer';
import { buyLinksOf, rawCatalogSearch } from './raw-catalog-search.js';

/** One measured search: raw structuredContent JSON against the tool's model-facing text. */
export interface TokenRow {
  query: string;
  tier: 'anonymous' | 'token';
  placements: boolean;
  products: number;
  buyLinks: number;
  rawTokens: number;
  modelTokens: number;
  /** Tokens the buy links take in the model's text: never shortened, so not the formatter's to save. */
  linkTokens: number;
  /** modelTokens / rawTokens. */
  ratio: number;
  /** Buy links of the raw answer missing, byte for byte, from the model's text. */
  linksLost: number;
  /** Tokens of the model's text in `buyLinks: 'reference'` mode. */
  referenceTokens: number;
  /** referenceTokens / rawTokens. */
  referenceRatio: number;
  /**
   * Buy links of the raw answer that the references of the reference-mode text do not give
   * back, byte for byte, through `resolveBuyLinks` (plus references that resolve to nothing).
   */
  referencesLost: number;
}

/** The searches of the table: common shopping queries, 10 products each. */
export const TOKEN_TABLE_QUERIES = [
  'trail running shoes',
  'rain jacket',
  'espresso machine',
  'yoga mat',
];
const LIMIT = 10;

interface Case {
  query: string;
  apiKey: string | undefined;
  placements: boolean;
}

/** The model's text of one search in one `buyLinks` mode, with the application's output. */
async function modelView(
  emulator: RunningEmulator,
  apiKey: string | undefined,
  input: SearchInput,
  buyLinks: BuyLinkMode,
) {
  const [searchCatalog] = createCatalogToolList({
    clientOptions: {
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      ...(apiKey ? { apiKey } : {}),
    },
    include: ['search_catalog'],
    buyLinks,
  });
  if (searchCatalog?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  const output = await searchCatalog.execute(input);
  return { output, text: searchCatalog.toModelOutput(output) };
}

interface SearchInput {
  query: string;
  limit: number;
  cursor: null;
  placements: Array<'affiliate'> | null;
}

/** Links lost in reference mode: every reference resolved against the output, then compared. */
function referencesLost(text: string, output: unknown, links: string[]): number {
  const resolution = resolveBuyLinks(text, [{ toolName: 'search_catalog', output }]);
  const resolved = new Set(resolution.resolved.map(({ link }) => link));
  return links.filter((link) => !resolved.has(link)).length + resolution.unresolved.length;
}

async function measure(
  emulator: RunningEmulator,
  { query, apiKey, placements }: Case,
): Promise<TokenRow> {
  const catalog = {
    query,
    pagination: { limit: LIMIT },
    ...(placements ? { placements: ['affiliate'] } : {}),
  };
  const raw = await rawCatalogSearch(emulator.mcpUrl, apiKey, catalog);
  const input: SearchInput = {
    query,
    limit: LIMIT,
    cursor: null,
    placements: placements ? ['affiliate'] : null,
  };
  const { output, text } = await modelView(emulator, apiKey, input, 'inline');
  const reference = await modelView(emulator, apiKey, input, 'reference');
  const links = buyLinksOf(raw.structuredContent);
  const rawTokens = countTokens(JSON.stringify(raw.structuredContent));
  const modelTokens = countTokens(text);
  const referenceTokens = countTokens(reference.text);
  const withoutLinks = links.reduce((rest, link) => rest.split(link).join(''), text);
  return {
    query,
    tier: apiKey ? 'token' : 'anonymous',
    placements,
    products: output.response.products.length,
    buyLinks: links.length,
    rawTokens,
    modelTokens,
    linkTokens: modelTokens - countTokens(withoutLinks),
    ratio: modelTokens / rawTokens,
    linksLost: links.filter((link) => !text.includes(link)).length,
    referenceTokens,
    referenceRatio: referenceTokens / rawTokens,
    referencesLost: referencesLost(reference.text, reference.output, links),
  };
}

/**
 * Measures every query in the anonymous tier and in the token tier with placements. The
 * emulator must answer MCP with plain JSON (`mcpResponse: 'json'`).
 */
export async function measureTokenTable(emulator: RunningEmulator): Promise<TokenRow[]> {
  const rows: TokenRow[] = [];
  for (const query of TOKEN_TABLE_QUERIES) {
    rows.push(await measure(emulator, { query, apiKey: undefined, placements: false }));
    rows.push(await measure(emulator, { query, apiKey: emulator.keys.valid, placements: true }));
  }
  return rows;
}

/** The median of some numbers (the mean of the middle two for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The rows as a Markdown table, with the median ratios per mode and tier. */
export function tokenTableMarkdown(rows: TokenRow[]): string {
  const header = [
    '| query | tier | placements | products | buy links | raw tokens | inline tokens | of which links | inline ratio | links lost | reference tokens | reference ratio | links lost |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const lines = rows.map(
    (row) =>
      `| ${row.query} | ${row.tier} | ${row.placements ? 'affiliate' : '-'} | ${row.products} | ${row.buyLinks} | ${row.rawTokens} | ${row.modelTokens} | ${row.linkTokens} | ${row.ratio.toFixed(2)} | ${row.linksLost} | ${row.referenceTokens} | ${row.referenceRatio.toFixed(2)} | ${row.referencesLost} |`,
  );
  const medianOf = (key: 'ratio' | 'referenceRatio', tier?: TokenRow['tier']) =>
    median(rows.filter((row) => !tier || row.tier === tier).map((row) => row[key])).toFixed(2);
  return [
    ...header,
    ...lines,
    '',
    `Median ratio (model tokens / raw tokens, o200k_base), inline: ${medianOf('ratio')} overall, ${medianOf('ratio', 'anonymous')} anonymous, ${medianOf('ratio', 'token')} token; reference: ${medianOf('referenceRatio')} overall, ${medianOf('referenceRatio', 'anonymous')} anonymous, ${medianOf('referenceRatio', 'token')} token.`,
  ].join('\n');
}
