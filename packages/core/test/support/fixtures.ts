/** A key long enough to be redacted, distinctive enough to search for. */
export const TEST_KEY = 'ck_test_5b7d1e0f9a8c4e21b3d6';

/** A buy link with characters a careless client would normalise or re-encode. */
export const TRICKY_BUY_LINK =
  'https://shop.example/p/%7Eitem?id=1&ref=a%2Fb&u=%E2%9C%93&space=a+b#Frag';

/** A `structuredContent` with a product, a placement and unknown fields everywhere. */
export function catalogPayload() {
  return {
    ucp: { version: '2026-01-01' },
    products: [
      {
        id: 'prod_1',
        title: 'Trail shoe',
        x_unknown_product_field: { nested: true },
        price_range: {
          min: { amount: 9999, currency: 'USD' },
          max: { amount: 12999, currency: 'USD' },
        },
        variants: [
          {
            id: 'var_1',
            title: 'Size 42',
            price: { amount: 9999, currency: 'USD' },
            url: TRICKY_BUY_LINK,
            placement: { commission: { percentage: { value: 7.5 } }, extra: 'kept' },
          },
        ],
      },
    ],
    pagination: { has_next_page: false },
    x_unknown_top_level: 42,
  };
}

/** A JSON-RPC `tools/call` success answer. */
export function toolsCallAnswer(id: unknown, structuredContent: unknown = catalogPayload()) {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
      structuredContent,
    },
  };
}

/** The JSON-RPC id of a received request body. */
export function rpcIdOf(body: string): unknown {
  return (JSON.parse(body) as { id: unknown }).id;
}
