/*
 * `@catalogkit/links`: the guards between tool results and the shopper.
 *
 * Skeleton only: this first commit gives applications and the testing kit the package name
 * to import from. The functions are still core's (`@catalogkit/core/links`, the hand-written
 * scanner); issue 32 replaces them with one CommonMark + GFM parse shared by
 * `verifyBuyLinks`, `renderAnswerHtml` and `rehypeBuyLinks`, and removes core's `links/`.
 */
export {
  type BuyLinkMode,
  BuyLinkReferences,
  type BuyLinkResolution,
  type BuyLinkSources,
  type BuyLinkStreamOptions,
  BuyLinkStreamResolver,
  type BuyLinkTrustOptions,
  type BuyLinkVerification,
  buyLinkReference,
  type FinalizeBuyLinksOptions,
  type FinalizedBuyLinks,
  finalizeBuyLinks,
  type ResolveBuyLinksOptions,
  resolveBuyLinks,
  verifyBuyLinks,
} from '@catalogkit/core/links';
