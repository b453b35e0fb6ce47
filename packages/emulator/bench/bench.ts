import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { medianGenerationMs } from './generation.js';

/**
 * Load test of a started emulator (autocannon): website search over REST and catalog
 * search over MCP. Run with `pnpm bench [--duration 10] [--connections 10] [--json]`.
 */
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

/** A mix of exact, prefix, typo and category-filtered queries, so no single path is measured. */
const WEBSITE_QUERIES = [
  'query=fellandtrail.co.uk',
  'query=summit&limit=10',
  'query=trailhed%20running',
  'query=run&category_ids=running-shoes&country=GB',
  'query=https%3A%2F%2Fwww.runrepublic.co.uk%2F',
  'query=electronics&limit=20&country=DE',
  'query=quarry',
  'query=northwind&category_ids=laptops&category_ids=cameras',
];

const CATALOG_QUERIES = [
  'trail running shoes under $120 in GB',
  'wireless earbuds',
  'cast iron skillet',
  'yoga mat under $40',
];

async function startServer() {
  const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
  const args = [
    '--conditions=@catalogkit/source',
    fileURLToPath(new URL('./server.ts', import.meta.url)),
  ];
  const child = spawn(tsx, values.json ? [...args, '--json'] : args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  const urls = JSON.parse(chunk.toString()) as { baseUrl: string; mcpUrl: string; key: string };
  return { ...urls, stop: () => child.kill('SIGTERM') };
}

function report(name: string, result: Result): string {
  const failed = result.non2xx + result.errors + result.timeouts;
  return `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.requests.total} | ${failed} |`;
}

// Measured before the load starts, so it does not compete with the server.
const generationMs = medianGenerationMs();
const server = await startServer();
try {
  const headers = { 'x-api-key': server.key };
  const websiteSearch = await autocannon({
    url: server.baseUrl,
    connections,
    duration,
    requests: WEBSITE_QUERIES.map((query) => ({
      method: 'GET',
      path: `/api/v1/websites/search?${query}`,
      headers,
    })),
  });
  const catalogSearch = await autocannon({
    url: server.mcpUrl,
    connections,
    duration,
    requests: CATALOG_QUERIES.map((query, id) => ({
      method: 'POST',
      path: '/ucp/mcp',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'search_catalog',
          arguments: { meta: null, catalog: { query, pagination: { limit: 10 } } },
        },
      }),
    })),
  });
  const [one, five] = loadavg();
  process.stdout.write(
    [
      `catalogkit emulator benchmark: ${duration}s per scenario, ${connections} connections, MCP ${values.json ? 'JSON' : 'SSE'}`,
      `machine: ${cpus().length} CPUs, load average ${one?.toFixed(2)} (1 min) ${five?.toFixed(2)} (5 min) at the end`,
      '',
      '| scenario | req/s (mean) | p50 ms | p99 ms | requests | failed |',
      '|---|---|---|---|---|---|',
      report('GET /api/v1/websites/search', websiteSearch),
      report('POST /ucp/mcp tools/call search_catalog', catalogSearch),
      '',
      `catalog generation (one seed, median of 5, before the load): ${generationMs.toFixed(0)} ms`,
      '',
    ].join('\n'),
  );
} finally {
  server.stop();
}
