export {
  type BuyLinkSources,
  type BuyLinkTrustOptions,
  collectBuyLinks,
  productBuyLinks,
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
