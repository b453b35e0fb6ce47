import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A catalog service that takes every request and never answers, counting those still open. */
export interface StalledService {
  baseUrl: string;
  mcpUrl: string;
  /** Requests received so far. */
  readonly received: number;
  /** Requests whose caller has not hung up yet. */
  readonly open: number;
  close(): Promise<void>;
}

export async function startStalledService(): Promise<StalledService> {
  const held = new Set<ServerResponse>();
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    held.add(response);
    request.resume();
    response.on('close', () => held.delete(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    mcpUrl: `http://127.0.0.1:${port}/ucp`,
    get received() {
      return received;
    },
    get open() {
      return held.size;
    },
    close: () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
