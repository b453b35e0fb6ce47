/** A buy link with characters a careless renderer would re-encode: `&`, `%`, `=`. */
export const BUY = 'https://go.example/r/1?u=https%3A%2F%2Fshop.example%2Fp%3Fa%3D1&sig=a1b2';
export const BUY_2 = 'https://go.example/r/2?sig=c3';

/** `search_catalog` results, as the AI SDK records them. */
export const toolResults = [
  {
    toolName: 'search_catalog',
    output: {
      request: { query: 'shoes' },
      response: {
        products: [
          { id: 'p1', title: 'Shoe', variants: [{ url: BUY }] },
          { id: 'p2', title: 'Boot', url: BUY_2, variants: [] },
        ],
      },
      tier: 'token',
    },
  },
];
