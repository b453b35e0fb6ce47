import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Products a hostile or broken catalog could send: markup in every text, script and data
 * URLs as buy links, and a web buy link a browser would rewrite (upper-case host, default
 * port, a space, an encoded character) to prove the host is handed it unchanged.
 */
export const HOSTILE_TITLE = `<img src=x onerror="document.title='pwned'">Trail <script>document.title='pwned'</script>Shoe`;
export const HOSTILE_SELLER = `<a href="javascript:document.title='pwned'">Evil</a> Outlet`;
export const SCRIPT_LINK = "javascript:document.title='pwned'";
export const DATA_LINK = 'data:text/html,<script>parent.document.title="pwned"</script>';
export const ODD_WEB_LINK = 'https://Shop.Example:443/buy/Caf%C3%A9?ref=a b&x=<y>';
export const UPPER_SCRIPT_LINK = 'JAVASCRIPT:alert(1)';

function products() {
  const price = { amount: 4200, currency: 'USD' };
  return [
    {
      id: 'prod_hostile',
      title: HOSTILE_TITLE,
      description: { plain: '<b>bold</b>' },
      price_range: { min: price, max: price },
      variants: [
        { id: 'var_script', title: '<i>Red</i>', price, url: SCRIPT_LINK },
        { id: 'var_data', title: 'Blue', price, url: DATA_LINK },
        {
          id: 'var_web',
          title: 'Green',
          price,
          url: ODD_WEB_LINK,
          seller: { name: HOSTILE_SELLER },
        },
      ],
    },
    { id: 'prod_bare', title: '<svg onload="alert(1)">', variants: [], url: UPPER_SCRIPT_LINK },
  ];
}

async function drain(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A catalog service on loopback whose every search answers the hostile products. */
export async function startHostileCatalog(): Promise<{ mcpUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    drain(request)
      .then((body) => {
        const rpc = JSON.parse(body) as { id?: unknown };
        const structuredContent = { products: products() };
        response.writeHead(200, { 'content-type': 'application/json', 'x-ucp-auth-tier': 'token' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: rpc.id,
            result: { content: [{ type: 'text', text: '' }], structuredContent },
          }),
        );
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    mcpUrl: `http://127.0.0.1:${port}/ucp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
