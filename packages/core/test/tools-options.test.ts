import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/client.js';
import { ConfigurationError, RequestValidationError } from '../src/errors/index.js';
import { type CatalogToolsOptions, createCatalogToolList } from '../src/tools/index.js';

// A loopback server that counts requests: invalid input must never reach it.
let server: Server;
let requests = 0;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests += 1;
    response.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"unexpected"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const clientOptions = () => ({ apiKey: 'sk_test_options_key', baseUrl, mcpUrl: baseUrl });

const bad = (options: unknown) => options as CatalogToolsOptions;

function expectConfigurationError(options: CatalogToolsOptions, message: RegExp): void {
  expect(() => createCatalogToolList(options)).toThrowError(ConfigurationError);
  expect(() => createCatalogToolList(options)).toThrowError(message);
}

describe('createCatalogToolList', () => {
  it('builds the three tools in order, only update_collection needing approval', () => {
    const tools = createCatalogToolList({ clientOptions: clientOptions() });
    expect(tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([
      ['search_catalog', false],
      ['search_websites', false],
      ['update_collection', true],
    ]);
  });

  it('selects tools with include and exclude', () => {
    const names = (options: CatalogToolsOptions) =>
      createCatalogToolList({ clientOptions: clientOptions(), ...options }).map(
        (tool) => tool.name,
      );
    expect(names({ include: ['update_collection', 'search_catalog'] })).toEqual([
      'search_catalog',
      'update_collection',
    ]);
    expect(names({ exclude: ['update_collection'] })).toEqual([
      'search_catalog',
      'search_websites',
    ]);
  });

  it('renames tools, and the descriptions follow the new names', () => {
    const tools = createCatalogToolList({
      clientOptions: clientOptions(),
      rename: (name) => `shop_${name}`,
    });
    expect(tools.map((tool) => tool.originalName)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
    ]);
    expect(tools.map((tool) => tool.name)).toEqual([
      'shop_search_catalog',
      'shop_search_websites',
      'shop_update_collection',
    ]);
    expect(tools[0]?.description).toContain('shop_update_collection clauses');
  });

  it('takes a client instance', () => {
    const client = new CatalogClient(clientOptions());
    expect(createCatalogToolList({ client })).toHaveLength(3);
  });

  it('throws a ConfigurationError naming each bad option (the plain checks a type cannot make)', () => {
    expectConfigurationError(
      bad({ include: ['search_catalog', 'buy_now'] }),
      /include\.1: must be one of/,
    );
    expectConfigurationError(
      { defaults: { limit: 50 } },
      /defaults\.limit: must be a whole number from 1 to 20/,
    );
    expectConfigurationError({ defaults: { limit: 2.5 } }, /defaults\.limit/);
    expectConfigurationError(bad({ buyLinks: 'short' }), /buyLinks: must be inline or reference/);
    expectConfigurationError(
      { client: new CatalogClient(clientOptions()), clientOptions: clientOptions() },
      /give client or clientOptions, not both/,
    );
    expectConfigurationError(
      { include: ['search_catalog'], exclude: ['search_catalog'] },
      /leave no tools/,
    );
    expectConfigurationError(
      { clientOptions: clientOptions(), rename: (name) => `shop.${name}` },
      /rename: gave "shop.search_catalog" for search_catalog/,
    );
    expectConfigurationError(
      { clientOptions: clientOptions(), rename: () => 'same' },
      /rename: gave the name same to two tools/,
    );
    expectConfigurationError({ clientOptions: { ...clientOptions(), timeoutMs: -1 } }, /timeoutMs/);
  });

  it('names every bad option at once', () => {
    expect(() =>
      createCatalogToolList({
        client: new CatalogClient(clientOptions()),
        clientOptions: clientOptions(),
        include: ['search_catalog', 'buy_now'],
        exclude: ['sell_now'],
        defaults: { limit: 0 },
      }),
    ).toThrowError(
      'Invalid catalog tools options: give client or clientOptions, not both; include.1: must be one of search_catalog, search_websites, update_collection; exclude.0: must be one of search_catalog, search_websites, update_collection; defaults.limit: must be a whole number from 1 to 20',
    );
  });

  it('calls the rename hook once per tool, when the tools are made', () => {
    const seen: string[] = [];
    const tools = createCatalogToolList({
      clientOptions: clientOptions(),
      rename: (name) => {
        seen.push(name);
        return `shop_${name}`;
      },
    });
    expect(seen).toEqual(['search_catalog', 'search_websites', 'update_collection']);
    expect(tools.map((tool) => tool.name)).toEqual(seen.map((name) => `shop_${name}`));
  });

  it('checks options with a few plain checks, not zod or the request checks', () => {
    // Typed options are TypeScript's to check: no schema is built or run for them.
    const source = readFileSync(new URL('../src/tools/options.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/validation\/(request|schema-check)|from 'zod/);
  });

  it('validates a direct call’s input before anything is sent', async () => {
    const [searchWebsites] = createCatalogToolList({
      clientOptions: clientOptions(),
      include: ['search_websites'],
    });
    const before = requests;
    const call = searchWebsites!.execute(
      // The shape a framework would refuse; a direct caller can still pass it.
      { query: 'x'.repeat(201), limit: 0 } as never,
    );
    await expect(call).rejects.toThrowError(RequestValidationError);
    // Both fields are named at once: the tool and the client share the rules.
    await expect(call).rejects.toThrowError(
      /query: must be at most 200 characters; limit: must be a whole number from 1 to 20/,
    );
    const tooLong = searchWebsites!.execute({
      query: 'x'.repeat(201),
      limit: null,
      category_ids: null,
      country: null,
    } as never);
    await expect(tooLong).rejects.toThrowError(/query: must be at most 200 characters/);
    expect(requests).toBe(before);
  });

  it('keeps the key out of a serialised tool list', () => {
    const tools = createCatalogToolList({ clientOptions: clientOptions() });
    expect(JSON.stringify(tools)).not.toContain('sk_test_options_key');
  });
});
