// Copied into every consumer project by the release rehearsal: checks one search_catalog
// call made against the emulator installed from the local registry.
import assert from 'node:assert/strict';

interface VariantView {
  url?: string;
}
interface SearchOutput {
  tier: string;
  response: { products: { id: string; variants: VariantView[] }[] };
}

/**
 * The application got the full parsed result (token tier, the products asked for) and the
 * model read compact text that names the first product and carries its buy link unchanged.
 */
export function checkSearch(output: unknown, modelText: string, limit: number): string {
  const { tier, response } = output as SearchOutput;
  assert.equal(tier, 'token', 'the valid key gives the token tier');
  assert.equal(response.products.length, limit, 'the application gets every product');
  const [first] = response.products;
  assert.ok(first && modelText.includes(first.id), 'the model reads the product id');
  const link = first.variants.find((variant) => variant.url)?.url;
  // References by default: the model reads `[[buy:…]]` per offer, never a catalog URL.
  assert.ok(link && !modelText.includes(link), 'the model reads no buy link URL');
  assert.match(modelText, /\[\[buy:[^\]\s]+\]\]/, 'the model reads buy-link references');
  return first.id;
}

/** The connection to the emulator the rehearsal started with `npx @catalogkit/emulator`. */
export function emulatorEnv(): { apiKey: string; baseUrl: string; mcpUrl: string } {
  const { CATALOG_API_KEY, CATALOG_BASE_URL, CATALOG_MCP_URL } = process.env;
  assert.ok(CATALOG_API_KEY && CATALOG_BASE_URL && CATALOG_MCP_URL, 'emulator variables set');
  return { apiKey: CATALOG_API_KEY, baseUrl: CATALOG_BASE_URL, mcpUrl: CATALOG_MCP_URL };
}

/** The text of every tool result a model received in one call's prompt (AI SDK 5, 6, 7). */
export function toolTextSeen(prompt: unknown): string {
  const messages = Array.isArray(prompt) ? (prompt as { role?: string; content?: unknown }[]) : [];
  return messages
    .filter((message) => message.role === 'tool' && Array.isArray(message.content))
    .flatMap((message) => message.content as { output?: { value?: unknown } }[])
    .map((part) => (typeof part.output?.value === 'string' ? part.output.value : ''))
    .join('\n');
}
