import { BaseToolkit, type DynamicStructuredTool } from '@langchain/core/tools';
import { createLangChainTools, type LangChainCatalogToolsOptions } from './create-catalog-tools.js';

/**
 * The catalog tools as a LangChain toolkit, for code that works with toolkits.
 *
 * @example
 * const toolkit = new CatalogToolkit({ clientOptions: { apiKey: process.env.CATALOG_API_KEY } });
 * const agent = createAgent({ model, tools: toolkit.getTools() });
 */
export class CatalogToolkit extends BaseToolkit {
  tools: DynamicStructuredTool[];

  /** @throws ConfigurationError when an option is invalid. */
  constructor(options: LangChainCatalogToolsOptions = {}) {
    super();
    this.tools = createLangChainTools(options);
  }
}
