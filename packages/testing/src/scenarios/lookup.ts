import { collectBuyLinks } from '@catalogkit/links';
import { toolCallsOf } from '../assertions/trajectory.js';
import type { CatalogService } from '../service/catalog-service.js';
import type { ModelScript, ScriptedCall } from '../stand-ins/script.js';
import { commonProblems } from './expectations.js';
import { answerWithOffers, lastResult, offersIn } from './offers.js';
import type { Scenario, ScenarioRun } from './types.js';

const SEARCH: ScriptedCall = {
  name: 'search_catalog',
  args: { query: 'running shoes under $120', limit: 3, placements: ['affiliate'] },
};
/** A retailer page the emulator's catalog has no offer for. */
const UNKNOWN_PAGE = 'https://shop.example/products/discontinued-trail-runner';

/** Calls of `tool` that reached the service, with the input the service received. */
function callsOf(run: ScenarioRun, tool: string): unknown[] {
  return toolCallsOf(run.service.exchanges)
    .filter((call) => call.toolName === tool)
    .map((call) => call.input);
}

/** `tool` must have reached the service: else the agent's tool set lacks it, or the model was not let call it. */
function calledProblems(run: ScenarioRun, tool: string): string[] {
  if (callsOf(run, tool).length > 0) return [];
  return [
    `${tool} never reached the service: build the tools with the tools the service lists (createCatalogTools({ serviceTools: await client.catalog.tools() }), or the serviceTools the kit gives)`,
  ];
}

/** The answer must link at least one offer of `tool`'s results (the fresh ones it asked for). */
function linkedFromProblems(run: ScenarioRun, tool: string): string[] {
  const text = run.answer?.text;
  if (text === undefined) return [];
  const sources = run.service.buyLinkSources().filter((source) => source.toolName === tool);
  return collectBuyLinks(sources).some((link) => text.includes(link))
    ? []
    : [`the answer links no offer of the ${tool} result (the model answered with its links)`];
}

/** A retailer's product page of the emulator's catalog, as a shopper pastes it. */
function retailerPage(service: CatalogService): string {
  return service.emulator.data.products[0]?.variants[0]?.url ?? UNKNOWN_PAGE;
}

/** Searches, asks get_product for the first product it read, answers with that product's offers. */
const detailsModel: ModelScript = (view) => {
  if (!lastResult(view, 'search_catalog')) return [SEARCH];
  const details = lastResult(view, 'get_product');
  if (!details) {
    const productId = offersIn(lastResult(view, 'search_catalog')?.text ?? '')[0]?.productId;
    if (!productId) return 'I could not search the catalog just now.';
    return [
      { name: 'get_product', args: { product_id: productId, selected: null, preferences: null } },
    ];
  }
  const offers = offersIn(details.text).slice(0, 2);
  if (offers.length === 0) return 'I could not read that product’s offers just now.';
  return answerWithOffers(offers, 'Here are its offers right now:');
};

/** The shopper asks about a product it was shown: the model reads its details with get_product. */
export const productDetails: Scenario = {
  id: 'product-details',
  title: 'a product’s details (get_product)',
  prompt:
    'Find running shoes under $120, then tell me more about the first one: colours and where to buy it.',
  model: () => detailsModel,
  expect: (run) => [
    ...commonProblems(run, { atLeastLinks: 1, maxServiceRequests: 5, maxModelRequests: 5 }),
    ...calledProblems(run, 'get_product'),
    ...linkedFromProblems(run, 'get_product'),
  ],
};

/** The shopper pastes a retailer's page: the model looks it up by URL with lookup_catalog. */
export const lookupByUrl: Scenario = {
  id: 'lookup-by-url',
  title: 'a retailer URL the shopper pastes (lookup_catalog)',
  prompt: 'Is the product on the page I pasted still for sale, and where can I buy it?',
  model: (service) => {
    const page = retailerPage(service);
    return (view) => {
      const found = lastResult(view, 'lookup_catalog');
      if (!found) return [{ name: 'lookup_catalog', args: { product_ids: null, urls: [page] } }];
      const offers = offersIn(found.text).slice(0, 2);
      if (offers.length === 0) return 'I could not find that page in the catalog.';
      return answerWithOffers(offers, 'Yes, it is listed:');
    };
  },
  expect: (run) => {
    const urls = callsOf(run, 'lookup_catalog').flatMap((input) =>
      JSON.stringify(input).includes(retailerPage(run.service)) ? [input] : [],
    );
    return [
      ...commonProblems(run, { atLeastLinks: 1, maxServiceRequests: 4, maxModelRequests: 4 }),
      ...calledProblems(run, 'lookup_catalog'),
      ...(callsOf(run, 'lookup_catalog').length > 0 && urls.length === 0
        ? ['lookup_catalog reached the service without the page the model gave (catalog.urls)']
        : []),
      ...linkedFromProblems(run, 'lookup_catalog'),
    ];
  },
};

/** What the model read of its lookup, if it was told the page is not found. */
function toldNotFound(run: ScenarioRun): boolean {
  return run.model.views.some((view) =>
    view.results.some(
      (result) =>
        result.name === 'lookup_catalog' &&
        /not_found/.test(result.text) &&
        result.text.includes(UNKNOWN_PAGE),
    ),
  );
}

/**
 * The shopper pastes a page the catalog does not know: the lookup answers `not_found` (a
 * result, not an error). The model must be told so, and the agent must answer without a link.
 */
export const productNotFound: Scenario = {
  id: 'product-not-found',
  title: 'a product the catalog does not know (not_found)',
  prompt: `Where can I buy this? ${UNKNOWN_PAGE}`,
  model: () => (view) => {
    const found = lastResult(view, 'lookup_catalog');
    if (!found)
      return [{ name: 'lookup_catalog', args: { product_ids: null, urls: [UNKNOWN_PAGE] } }];
    return /not_found/.test(found.text)
      ? 'That page is not in the catalog, so I have no buy link for it.'
      : 'I could not check that page just now.';
  },
  expect: (run) => [
    ...commonProblems(run, { atLeastLinks: 0, maxServiceRequests: 3, maxModelRequests: 4 }),
    ...calledProblems(run, 'lookup_catalog'),
    ...(callsOf(run, 'lookup_catalog').length > 1
      ? ['lookup_catalog ran more than once: not_found is an answer, not a failure to retry']
      : []),
    ...(callsOf(run, 'lookup_catalog').length > 0 && !toldNotFound(run)
      ? ['the model was never shown that the page is not_found (the lookup result it read)']
      : []),
  ],
};
