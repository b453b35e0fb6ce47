import * as toolsModule from '@langchain/core/tools';
import { describeLangChainTools } from './support/langchain-tools-suite.js';

// No alias in this project: `@langchain/core` is the dev dependency (1.x).
describeLangChainTools({ line: '1', version: '1.2.13', toolsModule });
