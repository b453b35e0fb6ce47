import * as ai from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describeBuyLinkHelpers } from './support/buy-links-suite.js';
import { v3BuyLinksHarness } from './support/buy-links-v3.js';

describeBuyLinkHelpers(v3BuyLinksHarness(7, { ai, MockLanguageModelV3 }));
