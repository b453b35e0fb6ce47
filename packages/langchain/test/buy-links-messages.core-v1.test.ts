import { describeBuyLinkMessageHelpers } from './support/buy-links-messages-suite.js';

describeBuyLinkMessageHelpers('1');
