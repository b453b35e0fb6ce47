/*
 * `@catalogkit/links`: the guards between catalog tool results and the shopper. One
 * CommonMark + GFM parse (markdown-it) reads a model's answer for `verifyBuyLinks` (an
 * allow-list: only links that are byte for byte buy links of trusted results) and for
 * `renderAnswerHtml` (only those links become clickable); `rehypeBuyLinks` applies the same
 * rule in an application's own Markdown renderer. References (`[[buy:ID]]`) are resolved by
 * `resolveBuyLinks`, `BuyLinkStreamResolver` for streams, or `finalizeBuyLinks` with the check.
 */
export { type BuyLinkMode, buyLinkReference } from '@catalogkit/core/tools';
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
export { type RehypeBuyLinksOptions, rehypeBuyLinks } from './rehype.js';
export { BUY_LINK_REL, renderAnswerHtml } from './render.js';
export { type BuyLinkSources, type BuyLinkTrustOptions, collectBuyLinks } from './sources.js';
export { type BuyLinkStreamOptions, BuyLinkStreamResolver } from './stream.js';
export {
  type BuyLinkIssue,
  type BuyLinkIssueKind,
  type BuyLinkVerification,
  type VerifiedLink,
  type VerifiedLinkForm,
  verifyBuyLinks,
} from './verify.js';
