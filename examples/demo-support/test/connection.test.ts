import { describe, expect, it } from 'vitest';
import { connectCatalog } from '../src/cli/connection.js';

describe('connectCatalog', () => {
  it('starts an emulator on loopback when no service is named, with its demo key', async () => {
    const connection = await connectCatalog({ CATALOG_API_KEY: 'ck_live_from_the_shell' });
    try {
      expect(connection.backend).toBe('emulator');
      expect(connection.clientOptions.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      expect(connection.clientOptions.apiKey).not.toBe('ck_live_from_the_shell');
      const response = await fetch(
        `${connection.clientOptions.baseUrl}/v1/websites/search?query=fell`,
        {
          headers: { 'x-api-key': connection.clientOptions.apiKey },
        },
      );
      expect(response.status).toBe(200);
      expect(connection.readCollection?.('col_summer')).toMatchObject({
        collection_id: 'col_summer',
        name: 'Summer',
      });
    } finally {
      await connection.close();
    }
  });

  it('reads a copy of the collection, which later changes do not touch', async () => {
    const connection = await connectCatalog({});
    try {
      const first = connection.readCollection?.('col_summer');
      first?.clauses?.push({
        clause_id: 'x',
        brand_ids: [],
        website_ids: [],
        category_ids: [],
        product_ids: [],
      });
      expect(connection.readCollection?.('col_summer')?.clauses).toHaveLength(1);
      expect(connection.readCollection?.('col_missing')).toBeUndefined();
    } finally {
      await connection.close();
    }
  });

  it('uses the service named by CATALOG_* and does not offer emulator reads', async () => {
    const connection = await connectCatalog({
      CATALOG_API_KEY: ' ck_live_1 ',
      CATALOG_BASE_URL: 'https://api.example.test',
      CATALOG_MCP_URL: 'https://mcp.example.test',
    });
    expect(connection).toMatchObject({
      backend: 'service',
      clientOptions: {
        apiKey: 'ck_live_1',
        baseUrl: 'https://api.example.test',
        mcpUrl: 'https://mcp.example.test',
      },
    });
    expect(connection.readCollection).toBeUndefined();
    await connection.close();
  });

  it('names every missing variable when the service is only partly configured, never the key', async () => {
    const attempt = connectCatalog({
      CATALOG_BASE_URL: 'https://api.example.test',
      CATALOG_API_KEY: '',
    });
    await expect(attempt).rejects.toThrow('missing: CATALOG_API_KEY, CATALOG_MCP_URL');
    await expect(
      connectCatalog({ CATALOG_MCP_URL: 'https://mcp.example.test', CATALOG_API_KEY: 'ck_secret' }),
    ).rejects.toThrow(/missing: CATALOG_BASE_URL\./);
    const error: unknown = await connectCatalog({
      CATALOG_MCP_URL: 'x',
      CATALOG_API_KEY: 'ck_secret',
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('ck_secret');
  });
});
