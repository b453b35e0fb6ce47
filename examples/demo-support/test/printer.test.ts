import type { Website } from '@catalogkit/core';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/printing/events.js';
import { createPrinter, shouldUseColor } from '../src/printing/printer.js';
import { catalogOutput, product, RETAILER_SITES, TRICKY_URL, websitesOutput } from './fixtures.js';

const ESCAPE = '\u001b[';

const collection = {
  collection_id: 'col_summer',
  name: 'Summer',
  updated_at: '2026-01-01T00:00:00.000Z',
  clauses: [
    {
      clause_id: 'cl_0001',
      brand_ids: [],
      website_ids: [],
      category_ids: ['sandals'],
      product_ids: [],
    },
    {
      clause_id: 'cl_0005',
      brand_ids: [],
      website_ids: [],
      category_ids: [],
      product_ids: ['prod_a', 'prod_e'],
    },
  ],
};

const events: AgentEvent[] = [
  {
    type: 'run-start',
    framework: 'Test',
    request: 'find shoes',
    model: { scripted: true, label: 'scripted shopper' },
    backend: 'emulator',
    baseUrl: 'http://127.0.0.1:1234/api',
  },
  {
    type: 'tool-call',
    toolName: 'search_catalog',
    toolCallId: 'c1',
    input: { query: 'trail running shoes', limit: 10 },
  },
  { type: 'tool-result', toolName: 'search_catalog', toolCallId: 'c1', output: catalogOutput() },
  {
    type: 'tool-result',
    toolName: 'search_websites',
    toolCallId: 'c2',
    output: websitesOutput('Fell & Trail', [RETAILER_SITES['Fell & Trail'] ?? { id: '', url: '' }]),
  },
  { type: 'tool-error', toolName: 'search_websites', toolCallId: 'c3', message: 'Rate limited' },
  {
    type: 'approval-request',
    toolName: 'update_collection',
    input: { collection_id: 'col_summer' },
  },
  {
    type: 'approval-decision',
    toolName: 'update_collection',
    approved: true,
    decidedBy: '--yes flag',
    reason: 'approved in advance',
  },
  {
    type: 'tool-result',
    toolName: 'update_collection',
    toolCallId: 'c4',
    output: { request: { collectionId: 'col_summer', update: {} }, response: collection },
  },
  { type: 'answer', text: 'I added these.\nline two' },
  { type: 'collection-after', collection, source: 'emulator state' },
];

function printAll(color: boolean): string {
  let out = '';
  const print = createPrinter({
    write: (text) => {
      out += text;
    },
    color,
  });
  for (const event of events) print(event);
  return out;
}

describe('createPrinter', () => {
  const plain = printAll(false);

  it('prints plain text without escape codes when colour is off', () => {
    expect(plain).not.toContain(ESCAPE);
  });

  it('uses ANSI colour when asked to', () => {
    expect(printAll(true)).toContain(ESCAPE);
  });

  it('prints the run header: request, catalog and model', () => {
    expect(plain).toContain('request: find shoes');
    expect(plain).toContain('emulator in this process at http://127.0.0.1:1234/api');
    expect(plain).toContain('scripted shopper, offline: set OPENAI_API_KEY to use a real model');
  });

  it('prints each tool call with its arguments', () => {
    expect(plain).toContain('→ search_catalog {"query":"trail running shoes","limit":10}');
  });

  it('prints the auth tier and the products with prices, retailers and buy links as received', () => {
    expect(plain).toContain('auth tier: token (valid key: monetized buy links)');
    expect(plain).toContain('• Kestrel Ridge 3 Trail Running Shoe prod_a');
    expect(plain).toMatch(/\$109\.99 +Fell & Trail/);
    expect(plain).toMatch(/\$89\.99 +Cheap Kicks/);
    expect(plain).toContain(`buy: ${TRICKY_URL}`);
    expect(plain).toContain('out_of_stock');
    // Offer lines are aligned: the retailer starts in the same column.
    const columns = plain
      .split('\n')
      .filter((line) => /^ {8}\$/.test(line))
      .map((line) => line.search(/[A-Z][a-z]/));
    expect(new Set(columns).size).toBe(1);
  });

  it('prints the retailers with their commission rate in the searched country', () => {
    expect(plain).toContain('1 retailer for "Fell & Trail", commission rates in GB:');
    expect(plain).toContain('• https://www.fellandtrail.co.uk web_fell  best commission 9.5%');
  });

  it('prints a retailer’s name before its address when the service sends one', () => {
    let out = '';
    const site = { ...RETAILER_SITES['Fell & Trail'], name: 'Fell & Trail' } as Website;
    createPrinter({
      write: (text) => {
        out += text;
      },
      color: false,
    })({
      type: 'tool-result',
      toolName: 'search_websites',
      toolCallId: 'c',
      output: websitesOutput('Fell & Trail', [site]),
    });
    expect(out).toContain(
      '• Fell & Trail https://www.fellandtrail.co.uk web_fell  best commission 9.5%',
    );
  });

  it('prints an offer’s commission from its placement, as core reads it', () => {
    let out = '';
    const output = catalogOutput();
    output.response.products = [
      product('prod_x', 'Commissioned Shoe', [
        { id: 'v', amount: 9999, seller: 'Fell & Trail', url: TRICKY_URL, commission: 9.5 },
      ]),
    ];
    createPrinter({
      write: (text) => {
        out += text;
      },
      color: false,
    })({ type: 'tool-result', toolName: 'search_catalog', toolCallId: 'c', output });
    expect(out).toMatch(/\$99\.99 +Fell & Trail +commission 9\.5%/);
    // Offers without commission data print none.
    expect(plain).not.toMatch(/Fell & Trail +commission/);
  });

  it('prints failures, the approval request and the decision', () => {
    expect(plain).toContain('✗ search_websites failed: Rate limited');
    expect(plain).toContain('? update_collection changes your data and needs approval:');
    expect(plain).toContain('✓ approved update_collection (by --yes flag): approved in advance');
  });

  it('prints the answer and the collection after the update with its clauses', () => {
    expect(plain).toContain('Answer\n  I added these.\n  line two');
    expect(plain).toContain('Collection after the update (read back from the emulator state):');
    expect(plain).toContain('"Summer" col_summer, 2 clauses, updated 2026-01-01T00:00:00.000Z');
    expect(plain).toContain('cl_0005  product_ids prod_a, prod_e');
  });

  it('prints a denial', () => {
    let out = '';
    createPrinter({
      write: (text) => {
        out += text;
      },
      color: false,
    })({
      type: 'approval-decision',
      toolName: 'update_collection',
      approved: false,
      decidedBy: 'no one to ask',
    });
    expect(out).toBe('  ✗ denied update_collection (by no one to ask)\n');
  });
});

describe('shouldUseColor', () => {
  it('colours a terminal', () => {
    expect(shouldUseColor({ isTTY: true }, {})).toBe(true);
  });

  it('does not colour a pipe or a file', () => {
    expect(shouldUseColor({ isTTY: false }, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
  });

  it('respects NO_COLOR and dumb terminals', () => {
    expect(shouldUseColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('lets FORCE_COLOR colour a pipe, but not over NO_COLOR', () => {
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldUseColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });
});
