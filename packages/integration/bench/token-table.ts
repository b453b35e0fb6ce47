import { createCatalogToolList } from '@catalogkit/core';
import type { RunningEmulator } from '@catalogkit/emulator';
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
  /** modelTokens / rawTokens. */
  ratio: number;
  /** Buy links of the raw answer missing, byte for byte, from the model's text. */
  linksLost: number;
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
  const [searchCatalog] = createCatalogToolList({
    clientOptions: {
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      ...(apiKey ? { apiKey } : {}),
    },
    include: ['search_catalog'],
  });
  const input = {
    query,
    limit: LIMIT,
    cursor: null,
    placements: placements ? ['affiliate' as const] : null,
  };
  if (searchCatalog?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  const output = await searchCatalog.execute(input);
  const text = searchCatalog.toModelOutput(output);
  const links = buyLinksOf(raw.structuredContent);
  const rawTokens = countTokens(JSON.stringify(raw.structuredContent));
  const modelTokens = countTokens(text);
  return {
    query,
    tier: apiKey ? 'token' : 'anonymous',
    placements,
    products: output.result.products.length,
    buyLinks: links.length,
    rawTokens,
    modelTokens,
    ratio: modelTokens / rawTokens,
    linksLost: links.filter((link) => !text.includes(link)).length,
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

/** The rows as a Markdown table, with the median ratio. */
export function tokenTableMarkdown(rows: TokenRow[]): string {
  const header = [
    '| query | tier | placements | products | buy links | raw tokens | model tokens | ratio | links lost |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const lines = rows.map(
    (row) =>
      `| ${row.query} | ${row.tier} | ${row.placements ? 'affiliate' : '-'} | ${row.products} | ${row.buyLinks} | ${row.rawTokens} | ${row.modelTokens} | ${row.ratio.toFixed(2)} | ${row.linksLost} |`,
  );
  const ratios = rows.map((row) => row.ratio).sort((a, b) => a - b);
  const middle = Math.floor(ratios.length / 2);
  const median = ratios.length % 2 ? ratios[middle]! : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return [
    ...header,
    ...lines,
    '',
    `Median ratio: ${median.toFixed(2)} (model tokens / raw tokens, o200k_base).`,
  ].join('\n');
}
