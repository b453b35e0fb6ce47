import type { Clause, Collection, Product, Variant, Website } from '@catalogkit/core';
import { commissionPercentage } from '@catalogkit/core/schemas';
import { formatMinorUnits } from '@catalogkit/core/tools';
import { createColors } from 'picocolors';
import type { AgentEvent } from './events.js';
import {
  type CatalogToolOutput,
  type CollectionToolOutput,
  readToolOutput,
  type WebsitesToolOutput,
} from './tool-outputs.js';

type Colors = ReturnType<typeof createColors>;

/** Where the printer writes and whether it may use colour. */
export interface PrinterOptions {
  /** Receives whole lines of text, each ending in a newline. */
  write: (text: string) => void;
  /** ANSI colour; see {@link shouldUseColor}. */
  color: boolean;
}

/**
 * Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org) or the
 * terminal is "dumb"; FORCE_COLOR forces it (useful in CI logs).
 */
export function shouldUseColor(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const INDENT = '    ';

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Column widths of an offer line, so prices and retailers line up. */
const PRICE_WIDTH = 9;
const RETAILER_WIDTH = 26;

function variantLine(c: Colors, variant: Variant): string {
  const price = variant.price ? formatMinorUnits(variant.price) : 'no price';
  const retailer = variant.seller?.name ?? 'unknown retailer';
  // Padding goes on before colour: escape codes would throw the widths off.
  const parts = [c.bold(price.padEnd(PRICE_WIDTH)), retailer.padEnd(RETAILER_WIDTH)];
  const commission = commissionPercentage(variant.placement);
  if (commission !== undefined) parts.push(c.green(`commission ${commission}%`));
  if (variant.availability?.available === false)
    parts.push(c.red(variant.availability.status ?? 'unavailable'));
  return parts.join('  ');
}

function productLines(c: Colors, product: Product): string[] {
  return [
    `${INDENT}${c.bold('•')} ${product.title} ${c.dim(product.id)}`,
    ...product.variants.flatMap((variant) => [
      `${INDENT}    ${variantLine(c, variant)}`,
      // The buy link exactly as the service sent it.
      `${INDENT}    ${c.dim('buy:')} ${c.cyan(variant.url ?? '(no buy link)')}`,
    ]),
  ];
}

function tierLine(c: Colors, tier: string): string {
  const meaning =
    tier === 'token' ? 'valid key: monetized buy links' : 'no valid key: links not monetized';
  return `${INDENT}auth tier: ${c.bold(c.magenta(tier))} ${c.dim(`(${meaning})`)}`;
}

function catalogLines(c: Colors, { request, response, tier }: CatalogToolOutput): string[] {
  const about = request ? ` for "${request.query}"` : '';
  return [
    tierLine(c, tier),
    `${INDENT}${plural(response.products.length, 'product')}${about}:`,
    ...response.products.flatMap((product) => productLines(c, product)),
  ];
}

function websiteLine(c: Colors, website: Website): string {
  const rate = `${website.best_commission_rate ?? 0}%`;
  // The contract has no name, but a service may send one: it tells namesakes apart.
  const name = typeof website.name === 'string' && website.name ? `${website.name} ` : '';
  return `${INDENT}${c.bold('•')} ${name}${website.url} ${c.dim(website.id)}  best commission ${c.green(rate)}`;
}

function websitesLines(c: Colors, { request, response }: WebsitesToolOutput): string[] {
  const country = request.country ?? 'US (the default)';
  return [
    `${INDENT}${plural(response.websites.length, 'retailer')} for "${request.query}", commission rates in ${country}:`,
    ...response.websites.map((website) => websiteLine(c, website)),
  ];
}

function clauseLine(c: Colors, clause: Clause): string {
  const keys = ['product_ids', 'website_ids', 'brand_ids', 'category_ids'] as const;
  const selectors = keys
    .filter((key) => clause[key].length > 0)
    .map((key) => `${key} ${clause[key].join(', ')}`);
  return `${INDENT}  ${c.dim(clause.clause_id)}  ${selectors.join('; ') || 'selects nothing'}`;
}

function collectionLines(c: Colors, collection: Collection): string[] {
  const clauses = collection.clauses ?? [];
  return [
    `${INDENT}${c.bold(`"${collection.name ?? collection.collection_id}"`)} ${c.dim(collection.collection_id)}, ${plural(clauses.length, 'clause')}, updated ${collection.updated_at ?? '(not said)'}`,
    ...clauses.map((clause) => clauseLine(c, clause)),
  ];
}

function toolResultLines(c: Colors, output: unknown): string[] {
  const read = readToolOutput(output);
  switch (read.kind) {
    case 'catalog':
      return catalogLines(c, read.output);
    case 'websites':
      return websitesLines(c, read.output);
    case 'collection':
      return collectionLines(c, (read.output as CollectionToolOutput).response);
    default:
      return [`${INDENT}${JSON.stringify(read.output)}`];
  }
}

function approvalRequestLines(
  c: Colors,
  event: Extract<AgentEvent, { type: 'approval-request' }>,
): string[] {
  return [
    c.yellow(`  ? ${event.toolName} changes your data and needs approval:`),
    `${INDENT}${JSON.stringify(event.input)}`,
  ];
}

function approvalDecisionLine(
  c: Colors,
  event: Extract<AgentEvent, { type: 'approval-decision' }>,
): string {
  const verdict = event.approved ? c.green('✓ approved') : c.red('✗ denied');
  const reason = event.reason ? `: ${event.reason}` : '';
  return `  ${verdict} ${event.toolName} (by ${event.decidedBy})${reason}`;
}

function runStartLines(c: Colors, event: Extract<AgentEvent, { type: 'run-start' }>): string[] {
  const backend =
    event.backend === 'emulator'
      ? `emulator in this process at ${event.baseUrl} (set CATALOG_BASE_URL, CATALOG_MCP_URL and CATALOG_API_KEY for the real service)`
      : `service at ${event.baseUrl}`;
  const model = event.model.scripted
    ? `${event.model.label}, offline: set OPENAI_API_KEY to use a real model`
    : event.model.label;
  return [
    c.bold(`catalogkit shopping agent (${event.framework})`),
    `  ${c.dim('request:')} ${event.request}`,
    `  ${c.dim('catalog:')} ${backend}`,
    `  ${c.dim('model:  ')} ${model}`,
    '',
  ];
}

function eventLines(c: Colors, event: AgentEvent): string[] {
  switch (event.type) {
    case 'run-start':
      return runStartLines(c, event);
    case 'tool-call':
      return [`${c.cyan('→')} ${c.bold(event.toolName)} ${JSON.stringify(event.input)}`];
    case 'tool-result':
      return [`${c.green('←')} ${c.bold(event.toolName)}`, ...toolResultLines(c, event.output)];
    case 'tool-error':
      return [`${c.red('✗')} ${c.bold(event.toolName)} failed: ${event.message}`];
    case 'approval-request':
      return approvalRequestLines(c, event);
    case 'approval-decision':
      return [approvalDecisionLine(c, event)];
    case 'answer':
      return ['', c.bold('Answer'), ...event.text.split('\n').map((line) => `  ${line}`)];
    case 'collection-after':
      return [
        '',
        c.bold(`Collection after the update (read back from the ${event.source}):`),
        ...collectionLines(c, event.collection),
      ];
  }
}

/**
 * A listener that prints agent events readably: tool calls with their arguments, the auth
 * tier, products with prices and buy links, retailers with commission rates, approvals
 * and the collection after the update. Buy links are printed exactly as received.
 */
export function createPrinter(options: PrinterOptions): (event: AgentEvent) => void {
  const colors = createColors(options.color);
  return (event) => {
    for (const line of eventLines(colors, event)) options.write(`${line}\n`);
  };
}
