// A CommonJS application: `require()`s @catalogkit/core (tsc emits require calls under
// module node16 in a "type": "commonjs" package), makes one tool call, and checks that an
// error thrown by the ESM copy of core is recognised by the CJS copy's `is` check.
import core = require('@catalogkit/core');

import { checkSearch, emulatorEnv } from './check';

async function main(): Promise<void> {
  const clientOptions = emulatorEnv();
  const [search] = core.createCatalogToolList({ include: ['search_catalog'], clientOptions });
  if (search?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  const output = await search.execute({
    query: 'trail running shoes',
    limit: 2,
    cursor: null,
    placements: null,
  });
  const productId = checkSearch(output, search.toModelOutput(output), 2);

  // Two copies of core in one process: this CJS one and the ESM build (`import()` stays an
  // import under node16). `instanceof` cannot see across them; the brand can.
  const esm = await import('@catalogkit/core');
  const client = new esm.CatalogClient(clientOptions);
  const error = await client.collections
    .update('col_missing', { name: 'x' })
    .catch((e: unknown) => e);
  if (!(error instanceof esm.NotFoundError)) throw new Error('expected a NotFoundError');
  if (error instanceof core.NotFoundError) throw new Error('expected two copies of core');
  if (!core.NotFoundError.is(error) || !core.CatalogError.is(error))
    throw new Error('brand not seen');
  if (core.RateLimitError.is(error)) throw new Error('brand matched the wrong class');
  console.log(JSON.stringify({ ok: true, productId, crossCopyIs: true }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
