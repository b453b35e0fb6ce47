import type { Website } from '@catalogkit/core';
import {
  buyLinkReference,
  formatCatalogResult,
  formatCollection,
  formatWebsites,
} from '@catalogkit/core/tools';
import { describe, expect, it } from 'vitest';
import { planNextStep } from '../src/shopper/plan.js';
import { DEFAULT_SHOPPING_REQUEST } from '../src/shopper/request.js';
import type { PlannedStep, ShopperTranscript, ToolObservation } from '../src/shopper/transcript.js';
import { catalogOutput, product, RETAILER_SITES, TRICKY_URL, websitesOutput } from './fixtures.js';

const catalogSeen: ToolObservation = {
  toolName: 'search_catalog',
  input: { query: 'trail running shoes' },
  text: formatCatalogResult(catalogOutput()),
  outcome: 'result',
};

function lookupSeen(retailer: string): ToolObservation {
  const site = RETAILER_SITES[retailer];
  return {
    toolName: 'search_websites',
    input: { query: retailer },
    text: formatWebsites(websitesOutput(retailer, site ? [site] : [])),
    outcome: 'result',
  };
}

const allLookups = ['Cheap Kicks', 'Fell & Trail', 'Run Republic', 'Trailhead Running'].map(
  lookupSeen,
);

const updateSeen: ToolObservation = {
  toolName: 'update_collection',
  input: {},
  text: formatCollection({
    request: { collectionId: 'col_summer', update: {} },
    response: { collection_id: 'col_summer', name: 'Summer', clauses: [] },
  }),
  outcome: 'result',
};

const plan = (observations: ToolObservation[], request = DEFAULT_SHOPPING_REQUEST): PlannedStep =>
  planNextStep({ request, observations } satisfies ShopperTranscript);

function calls(step: PlannedStep) {
  if (step.kind !== 'tool-calls')
    throw new Error(`expected tool calls, got: ${JSON.stringify(step)}`);
  return step.calls;
}

function answerText(step: PlannedStep): string {
  if (step.kind !== 'answer') throw new Error(`expected an answer, got: ${JSON.stringify(step)}`);
  return step.text;
}

describe('planNextStep', () => {
  it('first searches the catalog for the product the shopper wants, with commission data', () => {
    expect(calls(plan([]))).toEqual([
      {
        toolName: 'search_catalog',
        input: {
          query: 'trail running shoes under $120 in GB',
          limit: 10,
          cursor: null,
          placements: ['affiliate'],
        },
      },
    ]);
  });

  it('then looks up, in the shopper’s country, the retailers of in-stock offers within budget, cheapest first when no commission is shown', () => {
    const lookups = calls(plan([catalogSeen]));
    expect(lookups.map((call) => call.toolName)).toEqual(Array(4).fill('search_websites'));
    // prod_b at Fell & Trail is over $120 and prod_d is out of stock: Run Republic is
    // still looked up for its in-budget offer of prod_b.
    expect(lookups.map((call) => call.input)).toEqual(
      ['Cheap Kicks', 'Fell & Trail', 'Run Republic', 'Trailhead Running'].map((query) => ({
        query,
        limit: 3,
        category_ids: null,
        country: 'GB',
      })),
    );
  });

  it('looks up the retailers paying the most commission first, and at most four', () => {
    const output = catalogOutput();
    output.response.products = [
      ['Low Pay', 2, 5000],
      ['Top Pay', 12, 11000],
      ['No Data', undefined, 4000],
      ['Mid Pay', 8, 9000],
      ['Mid Pay Cheaper', 8, 7000],
    ].map(([seller, commission, amount], index) =>
      product(`prod_${index}`, `Shoe ${index}`, [
        {
          id: `prod_${index}_v1`,
          amount: amount as number,
          seller: seller as string,
          url: `https://shop${index}.example/p`,
          ...(commission === undefined ? {} : { commission: commission as number }),
        },
      ]),
    );
    const seen = { ...catalogSeen, text: formatCatalogResult(output) };
    expect(calls(plan([seen])).map((call) => call.input.query)).toEqual([
      'Top Pay',
      'Mid Pay Cheaper',
      'Mid Pay',
      'Low Pay',
    ]);
  });

  it('then adds the best two (good commission first) to the collection named in the request', () => {
    const [update] = calls(plan([catalogSeen, ...allLookups]));
    expect(update).toEqual({
      toolName: 'update_collection',
      input: {
        collection_id: 'col_summer',
        name: null,
        description: null,
        add_clauses: [
          { brand_ids: [], website_ids: [], category_ids: [], product_ids: ['prod_a', 'prod_e'] },
        ],
        replace_clauses: null,
        remove_clause_ids: null,
      },
    });
  });

  it('picks from what the tools returned: other rates give other picks', () => {
    const richerRunRepublic: ToolObservation = {
      ...lookupSeen('Run Republic'),
      text: formatWebsites(
        websitesOutput('Run Republic', [
          { id: 'web_run', url: 'https://www.runrepublic.co.uk', best_commission_rate: 12 },
        ]),
      ),
    };
    const [update] = calls(
      plan([
        catalogSeen,
        ...allLookups.slice(0, 2),
        richerRunRepublic,
        allLookups[3] as ToolObservation,
      ]),
    );
    expect(update?.input.add_clauses).toEqual([
      expect.objectContaining({ product_ids: ['prod_b', 'prod_a'] }),
    ]);
  });

  it('matches a retailer to the website named like it, not the most relevant one', () => {
    const twoTrailheads: ToolObservation = {
      ...lookupSeen('Trailhead Running'),
      text: formatWebsites(
        websitesOutput('Trailhead Running', [
          {
            id: 'web_other',
            url: 'https://www.bigtrailheadrunningstore.com',
            best_commission_rate: 20,
          },
          { id: 'web_trailhead', url: 'https://www.trailheadrunning.com', best_commission_rate: 2 },
        ]),
      ),
    };
    const [update] = calls(plan([catalogSeen, ...allLookups.slice(0, 3), twoTrailheads]));
    // At 2% Trailhead Running is no longer good: Run Republic's offer of prod_b comes second.
    expect(update?.input.add_clauses).toEqual([
      expect.objectContaining({ product_ids: ['prod_a', 'prod_b'] }),
    ]);
  });

  it('matches an offer that shows its website id to that website only, not to a namesake paying more', () => {
    const namesake = {
      id: 'web_namesake',
      url: 'https://www.fellandtrail.com',
      name: 'Fell & Trail',
    };
    const fellLookup = (websites: Website[]): ToolObservation => ({
      ...lookupSeen('Fell & Trail'),
      text: formatWebsites(websitesOutput('Fell & Trail', websites)),
    });
    const others = [allLookups[0], allLookups[2], allLookups[3]] as ToolObservation[];
    // prod_a's offer shows web_fell: the namesake's 20% is not its rate, web_fell's 1% is.
    const withOwnSite = fellLookup([
      { ...namesake, best_commission_rate: 20 },
      { id: 'web_fell', url: 'https://ft-shop.example', best_commission_rate: 1 },
    ] as Website[]);
    const [update] = calls(plan([catalogSeen, withOwnSite, ...others]));
    expect(update?.input.add_clauses).toEqual([
      expect.objectContaining({ product_ids: ['prod_e', 'prod_b'] }),
    ]);
    // Nor is it picked when the lookup does not find its website at all.
    const withoutOwnSite = fellLookup([{ ...namesake, best_commission_rate: 20 }] as Website[]);
    const [again] = calls(plan([catalogSeen, withoutOwnSite, ...others]));
    expect(again?.input.add_clauses).toEqual([
      expect.objectContaining({ product_ids: ['prod_e', 'prod_b'] }),
    ]);
  });

  it('matches an offer without a website id by the retailer name the website search sends', () => {
    const runRepublic: ToolObservation = {
      ...lookupSeen('Run Republic'),
      text: formatWebsites(
        websitesOutput('Run Republic', [
          {
            id: 'web_outlet',
            name: 'Run Republic Outlet',
            url: 'https://www.runrepublicoutlet.com',
            best_commission_rate: 1,
          },
          {
            id: 'web_run',
            name: 'Run Republic',
            url: 'https://rr.example',
            best_commission_rate: 12,
          },
        ] as Website[]),
      ),
    };
    const [update] = calls(
      plan([catalogSeen, ...allLookups.slice(0, 2), runRepublic, allLookups[3] as ToolObservation]),
    );
    expect(update?.input.add_clauses).toEqual([
      expect.objectContaining({ product_ids: ['prod_b', 'prod_a'] }),
    ]);
  });

  it('finally answers with each pick’s price, retailer, commission and buy link as printed', () => {
    const text = answerText(plan([catalogSeen, ...allLookups, updateSeen]));
    expect(text).toContain('I added these to col_summer');
    expect(text).toContain('Kestrel Ridge 3 Trail Running Shoe (prod_a), $109.99 at Fell & Trail');
    expect(text).toContain('9.5% commission in GB; buy: ');
    // The reference it read (the default view); the agent's final step resolves it to the link.
    expect(text).toContain(buyLinkReference(TRICKY_URL));
    expect(text).toContain('Nova Fell Racer (prod_e), $119.99 at Trailhead Running');
  });

  it('says so when the update was denied, and does not try again', () => {
    const denied: ToolObservation = { ...updateSeen, text: 'not now', outcome: 'denied' };
    expect(answerText(plan([catalogSeen, ...allLookups, denied]))).toContain(
      'I did not change col_summer',
    );
  });

  it('reports a failed update with what the tool said', () => {
    const failed: ToolObservation = {
      ...updateSeen,
      text: 'Collection col_summer was not found',
      outcome: 'error',
    };
    expect(answerText(plan([catalogSeen, ...allLookups, failed]))).toContain(
      'could not update col_summer: Collection col_summer was not found',
    );
  });

  it('reports a failed catalog search', () => {
    const failed: ToolObservation = {
      ...catalogSeen,
      text: 'Rate limited; retry in 30 s',
      outcome: 'error',
    };
    expect(answerText(plan([failed]))).toBe(
      'I could not search the catalog: Rate limited; retry in 30 s',
    );
  });

  it('says when nothing fits the budget', () => {
    const request = 'Find trail running shoes under $50 in GB, add the best two to col_summer';
    expect(answerText(plan([catalogSeen], request))).toBe(
      'I found no trail running shoes under $50.00 in stock.',
    );
  });

  it('says when no retailer pays a good commission', () => {
    const poor = allLookups.map((lookup) => ({
      ...lookup,
      text: formatWebsites(
        websitesOutput('x', [{ id: 'web_p', url: 'https://poor.test', best_commission_rate: 1 }]),
      ),
    }));
    expect(answerText(plan([catalogSeen, ...poor]))).toContain('pays a commission of 5% or more');
  });

  it('asks for the collection id when the request gives none', () => {
    const request = 'Find trail running shoes under $120 in GB and pick the best two';
    expect(answerText(plan([catalogSeen, ...allLookups], request))).toContain(
      'Tell me the id of the collection',
    );
  });
});
