// An ES module application on @catalogkit/core alone (its declarations and zod's, nothing
// else): one search_catalog call through the framework-neutral tool list. The rehearsal
// type-checks it with the oldest TypeScript we support, `skipLibCheck: false`.
import { createCatalogToolList } from '@catalogkit/core';
import { checkSearch, emulatorEnv } from './check.js';

const [search] = createCatalogToolList({
  include: ['search_catalog'],
  clientOptions: emulatorEnv(),
});
if (search?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
const output = await search.execute({
  query: 'trail running shoes',
  limit: 2,
  cursor: null,
  placements: null,
});
const productId = checkSearch(output, search.toModelOutput(output), 2);
console.log(JSON.stringify({ ok: true, productId }));
