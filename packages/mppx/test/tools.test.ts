import { type AnyCatalogTool, CatalogClient, createCatalogToolList } from '@catalogkit/core';
import { describe, expect, it } from 'vitest';
import { mppxPayment } from '../src/index.js';
import { start } from './support/emulator.js';
import { testMethod } from './support/test-method.js';

const websitesInput = { query: 'fell', limit: null, category_ids: null, country: null };

async function modelText(tool: AnyCatalogTool, input: unknown): Promise<string> {
  try {
    return tool.toModelOutput((await tool.execute(input as never)) as never);
  } catch (error) {
    const text = tool.errorToModelOutput(error);
    if (text === undefined) throw error;
    return text;
  }
}

describe('catalog tools on a metered key', () => {
  it('tell the model how much the unpaid call costs and that the application must approve it', async () => {
    const emulator = await start();
    const client = new CatalogClient({
      apiKey: emulator.keys.paymentRequired,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      maxRetries: 0,
      payment: mppxPayment({
        methods: [testMethod()],
        budget: [{ currency: 'usd', total: '100' }],
        approve: () => false,
      }),
    });
    const tools = createCatalogToolList({ client });
    const searchWebsites = tools.find((tool) => tool.originalName === 'search_websites');
    const text = await modelText(searchWebsites as AnyCatalogTool, websitesInput);
    expect(text).toMatch(/payment of 0\.25 USD/);
    expect(text).toMatch(/the application must approve/i);
    for (const internal of [emulator.keys.paymentRequired, 'WWW-Authenticate', 'realm', 'HMAC']) {
      expect(text).not.toContain(internal);
    }
    expect(text.length).toBeLessThan(400);
  });

  it('are answered as usual when the application pays', async () => {
    const emulator = await start();
    const tools = createCatalogToolList({
      clientOptions: {
        apiKey: emulator.keys.paymentRequired,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
        payment: mppxPayment({
          methods: [testMethod()],
          budget: [{ currency: 'usd', total: '100' }],
        }),
      },
    });
    const searchWebsites = tools.find((tool) => tool.originalName === 'search_websites');
    const text = await modelText(searchWebsites as AnyCatalogTool, websitesInput);
    expect(text).toMatch(/websites?|retailer/i);
    expect(emulator.payments.accepted).toHaveLength(1);
  });
});
