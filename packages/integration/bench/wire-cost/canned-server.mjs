// The canned loopback server of the wire-cost benchmark, run in a child process so its
// work is charged neither to the clients' event loop nor to their CPU time. Plain
// JavaScript: forked without a TypeScript loader. Answers come pre-rendered (sent over
// IPC); only the JSON-RPC id is spliced in.
import { createServer } from 'node:http';

const { websites, catalogs } = await new Promise((resolve) => process.once('message', resolve));
const ID_MARK = '"__ID__"';

function split(body) {
  const at = body.indexOf(ID_MARK);
  return [body.slice(0, at), body.slice(at + ID_MARK.length)];
}

// Pre-split answers: [before id, after id] for each product count.
const rpc = Object.fromEntries(Object.entries(catalogs).map(([size, body]) => [size, split(body)]));
const initialize = split(
  JSON.stringify({
    jsonrpc: '2.0',
    id: '__ID__',
    result: {
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'canned', version: '1.0.0' },
    },
  }),
);

function readBody(request) {
  return new Promise((resolve) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function answer(response, mode, parts, id) {
  const json = parts[0] + JSON.stringify(id) + parts[1];
  if (mode === 'sse') {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'x-ucp-auth-tier': 'token' });
    response.end(`event: message\ndata: ${json}\n\n`);
  } else {
    response.writeHead(200, { 'content-type': 'application/json', 'x-ucp-auth-tier': 'token' });
    response.end(json);
  }
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://canned');
  if (request.method === 'GET' && url.pathname === '/v1/websites/search') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(websites);
    return;
  }
  // /json/mcp or /sse/mcp, with ?products=10 or 100 on the MCP URL's path: /{mode}/{size}/mcp
  const [, mode, size, tail] = url.pathname.split('/');
  if (tail !== 'mcp') {
    response.writeHead(404).end();
    return;
  }
  if (request.method !== 'POST') {
    response.writeHead(405).end();
    return;
  }
  const message = JSON.parse(await readBody(request));
  if (message.method === 'tools/call') return answer(response, mode, rpc[size], message.id);
  if (message.method === 'initialize') return answer(response, mode, initialize, message.id);
  response.writeHead(202).end();
});

server.listen(0, '127.0.0.1', () => process.send(server.address().port));
// The parent going away (or closing the channel) ends the server.
process.on('disconnect', () => process.exit(0));
