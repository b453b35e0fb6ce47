import { UPDATE_ROUTE } from '../assertions/changes.js';
import type { CatalogService } from '../service/catalog-service.js';
import type { ModelScript, ModelView, ScriptedCall, ScriptedTurn } from '../stand-ins/script.js';
import { type CommonExpectations, commonProblems } from './expectations.js';
import { lookupByUrl, productDetails, productNotFound } from './lookup.js';
import { MANGLES } from './mangles.js';
import { answerWithOffers, lastResult, type OfferSeen, offersIn, resultsOf } from './offers.js';
import type { Scenario, ScenarioRun } from './types.js';

const MCP_CALL = 'POST /mcp tools/call';
const WEBSITES = 'GET /v1/websites/search';

const SHOES = 'Find running shoes under $120 and tell me where to buy them.';
const SEARCH: ScriptedCall = {
  name: 'search_catalog',
  args: { query: 'running shoes under $120', limit: 3, placements: ['affiliate'] },
};

/** Limits of a plain search-then-answer run (two model requests, one search, retries spare). */
const SEARCH_RUN: CommonExpectations = {
  atLeastLinks: 1,
  maxServiceRequests: 4,
  maxModelRequests: 4,
};

function offersRead(view: ModelView): OfferSeen[] {
  return offersIn(lastResult(view, 'search_catalog')?.text ?? '');
}

/** Searches, then answers with the first two offers it read, or says it found none. */
function searchThenAnswer(linkOf?: (offer: OfferSeen, index: number) => string): ModelScript {
  return (view) => {
    if (!lastResult(view, 'search_catalog')) return [SEARCH];
    const offers = offersRead(view).slice(0, 2);
    if (offers.length === 0)
      return 'I could not search the catalog just now, so I have no offers to show.';
    return answerWithOffers(offers, 'Here are two running shoes under $120:', linkOf);
  };
}

function countProblems(what: string, count: number, max: number): string[] {
  return count > max ? [`${what}: ${count} requests (at most ${max} expected)`] : [];
}

/** The scenario's fault must be met: else it passed without testing anything. */
function metProblems(what: string, count: number): string[] {
  return count === 0 ? [`${what} never reached the service: the scenario's fault was not met`] : [];
}

/** A search, then an answer with the offers' buy links as the model read them. */
export const shoppingRun: Scenario = {
  id: 'shopping-run',
  title: 'a shopping run: search, then answer with buy links',
  prompt: SHOES,
  model: () => searchThenAnswer(),
  expect: (run) => commonProblems(run, SEARCH_RUN),
};

function updateCall(service: CatalogService): ScriptedCall {
  const product = service.emulator.data.products[0]?.id ?? 'prod_unknown';
  return {
    name: 'update_collection',
    args: { collection_id: 'col_summer', add_clauses: [{ product_ids: [product] }] },
  };
}

function heldTimes(run: ScenarioRun, product: string): number {
  const clauses = run.service.emulator.state.collections.get('col_summer')?.clauses ?? [];
  return clauses.filter((clause) => clause.product_ids.includes(product)).length;
}

/**
 * The update's answer is lost after the service applied it (the connection drops), and the
 * model repeats the identical call, as models do. The change must be held once.
 */
export const updateOutcomeUnknown: Scenario = {
  id: 'update-outcome-unknown',
  title: 'an update whose outcome is unknown, then repeated by the model',
  prompt: 'Add the first running shoe of the catalog to my Summer collection.',
  arm: (service) =>
    service.emulator.faults.set({ routes: [UPDATE_ROUTE], drop: 'after', times: 1 }),
  model: (service) => {
    const call = updateCall(service);
    return (view): ScriptedTurn => {
      const tries = resultsOf(view, 'update_collection').length;
      if (tries < 2) return [call];
      return 'I could not confirm the change: please check your Summer collection.';
    };
  },
  expect: (run) => {
    const product = String(
      (updateCall(run.service).args.add_clauses as { product_ids: string[] }[])[0]?.product_ids[0],
    );
    const sent = run.service.emulator.stats.count(UPDATE_ROUTE);
    const held = heldTimes(run, product);
    return [
      ...commonProblems(run, { atLeastLinks: 0, maxServiceRequests: 4, maxModelRequests: 5 }),
      ...(sent === 0
        ? [
            'the update never reached the service (did the run stop at the approval request? answer it with approve)',
          ]
        : []),
      ...countProblems('update_collection reached the service', sent, 1),
      ...(sent > 0 && held !== 1
        ? [`the Summer collection holds the product ${held} times (once expected)`]
        : []),
    ];
  },
};

/** The commission lookup meets a 429 whose limit resets in an hour. */
export const rateLimited: Scenario = {
  id: 'rate-limited',
  title: 'a 429 mid-run (the website search is rate limited for an hour)',
  prompt: 'Find running shoes under $120 and the commission their retailers pay in the UK.',
  arm: (service) =>
    service.emulator.faults.set({ routes: [WEBSITES], status: 429, retryAfterSeconds: 3600 }),
  model: () => (view) => {
    if (!lastResult(view, 'search_catalog')) return [SEARCH];
    const offers = offersRead(view).slice(0, 2);
    if (!lastResult(view, 'search_websites')) {
      return [
        { name: 'search_websites', args: { query: offers[0]?.title ?? 'running', country: 'GB' } },
      ];
    }
    return answerWithOffers(
      offers,
      'Commission rates are unavailable for now (rate limited). The shoes:',
    );
  },
  expect: (run) => [
    ...commonProblems(run, { atLeastLinks: 1, maxServiceRequests: 6, maxModelRequests: 5 }),
    ...countProblems(
      'the rate-limited website search',
      run.service.emulator.stats.count(WEBSITES),
      3,
    ),
    ...metProblems('the rate-limited website search', run.service.emulator.stats.count(WEBSITES)),
  ],
};

/** Every call is answered 402 with a payment challenge (the key needs machine payments). */
export const paymentChallenge: Scenario = {
  id: 'payment-challenge',
  title: 'a 402 payment challenge on every call',
  prompt: SHOES,
  service: { key: 'paymentRequired' },
  model: () => searchThenAnswer(),
  expect: (run) => [
    ...commonProblems(run, { atLeastLinks: 0, maxServiceRequests: 4, maxModelRequests: 4 }),
    ...countProblems('the challenged search', run.service.emulator.stats.count(MCP_CALL), 3),
    ...metProblems('the challenged search', run.service.emulator.stats.count(MCP_CALL)),
    ...countProblems('payments taken', run.service.emulator.payments.accepted.length, 1),
  ],
};

/** The first search's connection drops before the service reads it (safe to resend). */
export const droppedConnection: Scenario = {
  id: 'dropped-connection',
  title: 'a dropped connection on the first search',
  prompt: SHOES,
  arm: (service) => service.emulator.faults.set({ routes: [MCP_CALL], drop: 'before', times: 1 }),
  model: () => searchThenAnswer(),
  expect: (run) => [
    ...commonProblems(run, SEARCH_RUN),
    ...countProblems('the search', run.service.emulator.stats.count(MCP_CALL), 3),
  ],
};

/** The service echoes the key it receives in titles, names and error texts. */
export const keyEchoed: Scenario = {
  id: 'key-echoed',
  title: 'a key echoed by the service in its answers',
  prompt: 'Find running shoes under $120, and retailers that pay commission in the UK.',
  service: { echoKey: true },
  model: () => (view) => {
    if (!lastResult(view, 'search_catalog')) {
      return [SEARCH, { name: 'search_websites', args: { query: 'running', country: 'GB' } }];
    }
    const websites = lastResult(view, 'search_websites')?.text.split('\n')[0] ?? '';
    return `${answerWithOffers(offersRead(view).slice(0, 2))}\nRetailers: ${websites}`;
  },
  expect: (run) =>
    commonProblems(run, { atLeastLinks: 1, maxServiceRequests: 4, maxModelRequests: 4 }),
};

const dropOne = MANGLES.find((mangle) => mangle.name === 'drop a character')!;

/** The model miscopies the buy links it read: a character dropped, a bracket lost. */
function miscopy(offer: OfferSeen, index: number): string {
  const context = { other: offer.link, random: () => 0.5 };
  if (offer.link.startsWith('[[')) {
    // A reference with a lost bracket still names its link: the application must resolve it.
    return index === 0 ? offer.link.slice(1) : `${offer.link}.`;
  }
  return index === 0 ? dropOne.link(offer.link, context) : offer.link.replaceAll('&', '&amp;');
}

/** The model copies the buy links wrong; the shopper must still get only true buy links. */
export const linkCopiedWrong: Scenario = {
  id: 'link-copied-wrong',
  title: 'a buy link copied wrong by the model',
  prompt: SHOES,
  model: () => searchThenAnswer(miscopy),
  expect: (run) => commonProblems(run, SEARCH_RUN),
};

/**
 * The shopper denies the change the model asks for: the agent must not apply it, and must
 * still answer.
 */
export const changeDenied: Scenario = {
  id: 'change-denied',
  title: 'a change the shopper denies',
  prompt: 'Add the first running shoe of the catalog to my Summer collection.',
  shopper: 'denies',
  model: (service) => {
    const call = updateCall(service);
    let asked = false;
    return (): ScriptedTurn => {
      if (asked) return 'You declined the change, so your Summer collection is unchanged.';
      asked = true;
      return [call];
    };
  },
  expect: (run) => {
    const sent = run.service.emulator.stats.count(UPDATE_ROUTE);
    return [
      ...commonProblems(run, { atLeastLinks: 0, maxServiceRequests: 2, maxModelRequests: 4 }),
      ...(run.approvals.length === 0
        ? ['the agent never asked the shopper before the change (call approve)']
        : []),
      ...(sent > 0
        ? [
            `update_collection reached the service ${sent} time${sent === 1 ? '' : 's'} after the shopper denied it: honour the decision approve returns`,
          ]
        : []),
    ];
  },
};

/** Every scenario, in the order the report lists them. */
export const SCENARIOS: readonly Scenario[] = [
  shoppingRun,
  updateOutcomeUnknown,
  rateLimited,
  paymentChallenge,
  droppedConnection,
  keyEchoed,
  linkCopiedWrong,
  changeDenied,
  productDetails,
  lookupByUrl,
  productNotFound,
];
