import * as toolsModule from 'langchain-core-03/tools';
import { describeLangChainTools } from './support/langchain-tools-suite.js';

// The vitest project aliases every `@langchain/core/...` import (tests and src/) to the
// aliased dev dependency `langchain-core-03`; the suite's first test checks it took effect.
describeLangChainTools({ line: '0.3', version: '0.3.80', toolsModule });
