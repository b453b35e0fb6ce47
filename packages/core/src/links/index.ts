/*
 * `@catalogkit/core/links`: the guards between tool results and the shopper. Buy links are
 * checked against the links the catalog tools returned (`verifyBuyLinks`), repaired
 * (`repairBuyLinks`), written by the model as short references and resolved back
 * (`buyLinkReference`, `resolveBuyLinks`, `BuyLinkStreamResolver` for streams), or all of it
 * at once (`finalizeBuyLinks`). The adapters wrap these for their frameworks' results.
 */
export {
  type BuyLinkSources,
  type BuyLinkTrustOptions,
  collectBuyLinks,
} from './buy-links.js';
export {
  type FinalizeBuyLinksOptions,
  type FinalizedBuyLinks,
  finalizeBuyLinks,
} from './finalize.js';
export { type FoundUrl, type FoundUrlKind, findUrls } from './find-urls.js';
export type { BuyLinkMatch } from './nearest.js';
export { type BuyLinkMode, buyLinkReference } from './references.js';
export {
  BuyLinkReferences,
  type BuyLinkResolution,
  type ResolveBuyLinksOptions,
  resolveBuyLinks,
  type UnresolvedReference,
} from './resolve.js';
export { type BuyLinkStreamOptions, BuyLinkStreamResolver } from './stream.js';
export {
  type BuyLinkCheckOptions,
  type BuyLinkIssue,
  type BuyLinkRepair,
  type BuyLinkVerification,
  repairBuyLinks,
  verifyBuyLinks,
} from './verify.js';
