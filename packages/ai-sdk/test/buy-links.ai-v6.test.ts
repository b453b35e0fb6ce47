import type * as ai from 'ai';
import type { MockLanguageModelV3 as MockOfAi7 } from 'ai/test';
import * as aiV6 from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describeBuyLinkHelpers } from './support/buy-links-suite.js';
import { v3BuyLinksHarness } from './support/buy-links-v3.js';

// Typed as ai 7's, as a user's compiler would see their own `ai`; the runtime is ai 6.
describeBuyLinkHelpers(
  v3BuyLinksHarness(6, {
    ai: aiV6 as unknown as typeof ai,
    MockLanguageModelV3: MockLanguageModelV3 as unknown as typeof MockOfAi7,
  }),
);
