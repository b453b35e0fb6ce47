import { startEmulator } from '@catalogkit/emulator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Approver, autoApprover, denyingApprover } from '../src/cli/approvals.js';
import { type CatalogConnection, connectCatalog } from '../src/cli/connection.js';
import type { AgentEvent } from '../src/printing/events.js';
import { createPrinter } from '../src/printing/printer.js';
import type { DemoRunOptions, DemoRunResult } from '../src/printing/run-log.js';
import { CatalogToolOutputSchema, WebsitesToolOutputSchema } from '../src/printing/tool-outputs.js';
import { GOOD_COMMISSION_PERCENT } from '../src/shopper/picks.js';
import { DEFAULT_SHOPPING_REQUEST } from '../src/shopper/request.js';

/**
 * What the suite needs from an example: its demo run, which runs the example's agent with the
 * scripted model (the suite blanks OPENAI_API_KEY) and reads events from the agent's steps.
 */
export interface ShoppingAgentSubject {
  /** The framework name the run header shows, e.g. "Vercel AI SDK". */
  framework: string;
  run(options: DemoRunOptions): Promise<DemoRunResult>;
}

const BUDGET_MINOR = 12000;

function ofType<T extends AgentEvent['type']>(events: AgentEvent[], type: T) {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

function outputsOf(events: AgentEvent[], toolName: string): unknown[] {
  return ofType(events, 'tool-result').flatMap((event) =>
    event.toolName === toolName ? [event.output] : [],
  );
}

/** Tool calls and approvals, in order, as "type:tool" strings. */
function steps(events: AgentEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'tool-call' ||
    event.type === 'approval-request' ||
    event.type === 'approval-decision'
      ? [`${event.type}:${event.toolName}`]
      : [],
  );
}

/** True when the product has an in-stock offer within budget at a retailer paying a good GB commission. */
function hasGoodOffer(events: AgentEvent[], productId: string): boolean {
  const catalog = CatalogToolOutputSchema.parse(outputsOf(events, 'search_catalog')[0]);
  const rates = new Map(
    outputsOf(events, 'search_websites').flatMap((output) =>
      WebsitesToolOutputSchema.parse(output).response.websites.map(
        (site) => [site.id, site.best_commission_rate ?? 0] as const,
      ),
    ),
  );
  const product = catalog.response.products.find((candidate) => candidate.id === productId);
  return (product?.variants ?? []).some((variant) => {
    const websiteId = (variant.metadata as { website_id?: unknown } | undefined)?.website_id;
    const rate = typeof websiteId === 'string' ? (rates.get(websiteId) ?? 0) : 0;
    return (
      variant.availability?.available !== false &&
      (variant.price?.amount ?? Infinity) <= BUDGET_MINOR &&
      rate >= GOOD_COMMISSION_PERCENT
    );
  });
}

/**
 * The offline run of an example agent against a real emulator over HTTP: the steps it
 * takes, the approval, the change it makes to the emulator's state and what it prints.
 */
export function shoppingAgentSuite(subject: ShoppingAgentSubject): void {
  describe(`the ${subject.framework} shopping agent, offline (emulator + scripted model)`, () => {
    let connection: CatalogConnection;
    let printed: string;

    beforeEach(async () => {
      // A developer's key must not switch the suite to a real model.
      vi.stubEnv('OPENAI_API_KEY', '');
      connection = await connectCatalog({});
      printed = '';
    });
    afterEach(async () => {
      vi.unstubAllEnvs();
      await connection.close();
    });

    const run = (approver: Approver) =>
      subject.run({
        request: DEFAULT_SHOPPING_REQUEST,
        connection,
        approver,
        onEvent: createPrinter({
          write: (text) => {
            printed += text;
          },
          color: false,
        }),
      });

    it('searches, looks up retailers, asks for approval, then updates the collection', async () => {
      const { events } = await run(autoApprover());
      const taken = steps(events);
      const lookups = taken.filter((step) => step === 'tool-call:search_websites').length;
      expect(lookups).toBeGreaterThan(0);
      expect(taken).toEqual([
        'tool-call:search_catalog',
        ...Array(lookups).fill('tool-call:search_websites'),
        'approval-request:update_collection',
        'approval-decision:update_collection',
        'tool-call:update_collection',
      ]);
      expect(ofType(events, 'approval-decision')[0]).toMatchObject({
        approved: true,
        decidedBy: '--yes flag',
      });
      // The approval is about the very call that then runs: the same arguments.
      const approved = ofType(events, 'approval-request')[0]?.input;
      const updateCall = ofType(events, 'tool-call').find(
        (event) => event.toolName === 'update_collection',
      );
      expect(approved).toMatchObject({ collection_id: 'col_summer' });
      expect(updateCall?.input).toEqual(approved);
      expect(ofType(events, 'tool-error')).toEqual([]);
    });

    it('really changes the collection in the emulator: one clause with two products that fit the request', async () => {
      const before = connection.readCollection?.('col_summer');
      const { events, collectionAfter } = await run(autoApprover());
      const after = connection.readCollection?.('col_summer');
      expect(after?.clauses).toHaveLength((before?.clauses?.length ?? 0) + 1);
      expect(after?.updated_at).not.toBe(before?.updated_at);
      expect(collectionAfter).toEqual(after);
      expect(ofType(events, 'collection-after')[0]).toMatchObject({ source: 'emulator state' });
      const added = after?.clauses?.at(-1)?.product_ids ?? [];
      expect(added).toHaveLength(2);
      for (const productId of added) expect(hasGoodOffer(events, productId), productId).toBe(true);
    });

    it('answers with the picks’ buy links exactly as the catalog returned them', async () => {
      const { text, events } = await run(autoApprover());
      const catalog = CatalogToolOutputSchema.parse(outputsOf(events, 'search_catalog')[0]);
      const links = catalog.response.products.flatMap((product) =>
        product.variants.map((variant) => variant.url),
      );
      const quoted = [...text.matchAll(/buy: (\S+)/g)].map((match) => match[1]);
      expect(quoted).toHaveLength(2);
      for (const link of quoted) expect(links).toContain(link);
      expect(text).toContain('I added these to col_summer');
    });

    it('prints every step readably, without the API key', async () => {
      await run(autoApprover());
      expect(printed).toContain(`catalogkit shopping agent (${subject.framework})`);
      expect(printed).toContain('auth tier: token');
      expect(printed).toMatch(/best commission \d+(\.\d+)?%/);
      expect(printed).toContain('✓ approved update_collection');
      expect(printed).toContain('Collection after the update (read back from the emulator state)');
      expect(printed).not.toContain(connection.clientOptions.apiKey);
    });

    it('leaves the collection alone when the update is denied, and says so', async () => {
      const before = connection.readCollection?.('col_summer');
      const { events, text, collectionAfter } = await run(denyingApprover('the shopper said no'));
      expect(connection.readCollection?.('col_summer')).toEqual(before);
      expect(ofType(events, 'tool-call').map((event) => event.toolName)).not.toContain(
        'update_collection',
      );
      expect(ofType(events, 'approval-decision')[0]).toMatchObject({
        approved: false,
        reason: 'the shopper said no',
      });
      expect(text).toContain('I did not change col_summer');
      expect(collectionAfter).toBeUndefined();
    });
  });

  describe(`the ${subject.framework} shopping agent against a deployment named by CATALOG_*`, () => {
    beforeEach(() => {
      vi.stubEnv('OPENAI_API_KEY', '');
    });
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('uses that service instead of starting an emulator', async () => {
      // A separately started emulator stands in for the real deployment.
      const service = await startEmulator({ port: 0 });
      try {
        const connection = await connectCatalog({
          CATALOG_API_KEY: service.keys.valid,
          CATALOG_BASE_URL: service.baseUrl,
          CATALOG_MCP_URL: service.mcpUrl,
        });
        expect(connection.backend).toBe('service');
        const { events } = await subject.run({
          request: DEFAULT_SHOPPING_REQUEST,
          connection,
          approver: autoApprover(),
        });
        expect(ofType(events, 'run-start')[0]).toMatchObject({
          backend: 'service',
          baseUrl: service.baseUrl,
        });
        expect(ofType(events, 'collection-after')[0]).toMatchObject({
          source: 'update_collection result',
        });
        expect(service.state.collections.get('col_summer')?.clauses).toHaveLength(2);
      } finally {
        await service.close();
      }
    });
  });
}
