import { type ReceivedRequest, startOpenAiStandIn } from '@catalogkit/example-demo-support/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// No static import of the agent: `@ai-sdk/openai` reads OPENAI_BASE_URL when it is imported,
// so the modules are imported only once the environment points at the stand-in.
const agentModule = () => import('../src/agent.js');
const runModule = () => import('../demo/run.js');

describe('the model', () => {
  let openai: { baseUrl: string; received: ReceivedRequest[]; close(): Promise<void> };

  beforeAll(async () => {
    openai = await startOpenAiStandIn();
    vi.stubEnv('OPENAI_BASE_URL', openai.baseUrl);
    vi.stubEnv('OPENAI_MODEL', '');
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await openai.close();
  });

  it('is scripted in the demo when OPENAI_API_KEY is unset or blank', async () => {
    vi.stubEnv('OPENAI_API_KEY', ' ');
    const chosen = (await runModule()).chooseModel();
    expect(chosen.description.scripted).toBe(true);
    expect(chosen.model).toMatchObject({
      provider: 'catalogkit-example',
      modelId: 'scripted-shopper',
    });
  });

  it('is the agent’s OpenAI model with OPENAI_API_KEY, the one OPENAI_MODEL names', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    vi.stubEnv('OPENAI_MODEL', 'gpt-4o');
    const chosen = (await runModule()).chooseModel();
    expect(chosen.description).toEqual({ scripted: false, label: 'openai gpt-4o' });
    expect(chosen.model).toMatchObject({
      modelId: 'gpt-4o',
      provider: expect.stringMatching(/^openai/),
    });
    vi.stubEnv('OPENAI_MODEL', '');
  });

  it('by default sends gpt-4.1-mini the instructions and the catalog tools, at OPENAI_BASE_URL with the key', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    const { INSTRUCTIONS, runShoppingAgent } = await agentModule();
    const run = runShoppingAgent('find socks', {
      clientOptions: {
        apiKey: 'ck_test',
        baseUrl: 'http://127.0.0.1:9/api',
        mcpUrl: 'http://127.0.0.1:9/ucp',
      },
      // Given, so the unreachable catalog is first called by a tool, after the model.
      serviceTools: ['search_catalog', 'lookup_catalog', 'get_product'],
      approve: async () => ({ approved: false }),
    });
    await expect(run).rejects.toThrow();
    expect(openai.received).toHaveLength(1);
    expect(openai.received[0]).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Bearer sk-test' },
    });
    const body = openai.received[0]?.body ?? '';
    expect(JSON.parse(body)).toMatchObject({ model: 'gpt-4.1-mini' });
    for (const text of [
      INSTRUCTIONS,
      'search_catalog',
      'get_product',
      'lookup_catalog',
      'update_collection',
    ])
      expect(body).toContain(JSON.stringify(text).slice(1, -1));
    expect(body).not.toContain('ck_test');
  });

  it('reads the tools the catalog lists before asking the model: no catalog, no model bill', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    const { runShoppingAgent } = await agentModule();
    const asked = openai.received.length;
    const run = runShoppingAgent('find socks', {
      clientOptions: {
        apiKey: 'ck_test',
        baseUrl: 'http://127.0.0.1:9/api',
        mcpUrl: 'http://127.0.0.1:9/ucp',
      },
      approve: async () => ({ approved: false }),
    });
    await expect(run).rejects.toThrow();
    expect(openai.received.length).toBe(asked);
  });
});
