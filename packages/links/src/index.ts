/*
 * `@catalogkit/links`: one CommonMark + GFM parse (markdown-it, GFM's literal-link rules) reads
 * an answer for `verifyBuyLinks` (an allow-list of buy links) and `renderAnswerHtml` (only those
 * clickable); `rehypeBuyLinks` is the same rule for an application's renderer. References
 * (`[[buy:ID]]`) resolve by `resolveBuyLinks`, `BuyLinkStreamResolver` or `finalizeBuyLinks`;
 * `refreshBuyLinks` renews a stored answer's links in one `lookup_catalog` call.
 */
export {
  type BuyLinkMode,
  buyLinkReference,
  type ProductOffer,
  productOffers,
} from '@catalogkit/core/tools';
export {
  type FinalizeBuyLinksOptions,
  type FinalizedBuyLinks,
  finalizeBuyLinks,
} from './finalize.js';
export { MAX_PARSED_CHARS } from './parse.js';
export {
  BuyLinkReferences,
  type BuyLinkResolution,
  type ResolveBuyLinksOptions,
  resolveBuyLinks,
  type UnresolvedReference,
} from './references.js';
export {
  type BuyLinkRefreshClient,
  type GoneBuyLink,
  type GoneReason,
  type RefreshBuyLinksOptions,
  type RefreshedBuyLinks,
  refreshBuyLinks,
  type ShownOffer,
  type StoredAnswer,
} from './refresh.js';
export { type RehypeBuyLinksOptions, rehypeBuyLinks } from './rehype.js';
export { BUY_LINK_REL, renderAnswerHtml } from './render.js';
export {
  type BuyLinkSources,
  type BuyLinkTrustOptions,
  CATALOG_RESULT_TOOLS,
  catalogResultProducts,
  collectBuyLinks,
} from './sources.js';
export { type BuyLinkStreamOptions, BuyLinkStreamResolver } from './stream.js';
export {
  type BuyLinkIssue,
  type BuyLinkIssueKind,
  type BuyLinkVerification,
  type VerifiedLink,
  type VerifiedLinkForm,
  verifyBuyLinks,
} from './verify.js';
