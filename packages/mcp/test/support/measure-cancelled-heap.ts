/*
 * Measures what SSE requests whose bodies are cancelled unread leave behind: the heap after
 * gc and the catalog calls still open, with the tools calling a service that never answers.
 * Not a test (the bound is proven by http-handler-lifecycle.test.ts); run it with
 *   cd packages/mcp && N=3000 node --expose-gc --import tsx \
 *     --conditions=@catalogkit/source test/support/measure-cancelled-heap.ts
 */
import { createCatalogMcpHandler } from '../../src/index.js';
import { callBody, MCP_HEADERS } from './hanging-tool.js';
import { mountInHono } from './http-host.js';
import { startStalledService } from './stalled-service.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc');
const heapMb = () => {
  gc();
  gc();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
};

const service = await startStalledService();
const clientOptions = {
  apiKey: 'ck_measure',
  baseUrl: service.baseUrl,
  mcpUrl: service.mcpUrl,
  maxRetries: 0,
};
const host = await mountInHono(createCatalogMcpHandler({ sse: true, clientOptions }));
const args = { query: 'outdoor', limit: null, category_ids: null, country: null };
const requests = Number(process.env.N ?? 3000);
const heapStartMb = heapMb();
const started = performance.now();
for (let i = 0; i < requests; i += 20) {
  const batch = Array.from({ length: Math.min(20, requests - i) }, async (_, j) => {
    const body = callBody(i + j, 'search_websites', args);
    const response = await fetch(host.url, { method: 'POST', headers: MCP_HEADERS, body });
    await response.body?.cancel();
  });
  await Promise.all(batch);
}
await new Promise((resolve) => setTimeout(resolve, 1000));
const seconds = Math.round((performance.now() - started) / 1000);
const result = {
  requests,
  heapStartMb,
  heapEndMb: heapMb(),
  callsStillOpen: service.open,
  seconds,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
await host.close();
await service.close();
process.exit(0);
