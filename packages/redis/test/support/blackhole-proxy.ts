import { connect, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of redis-server that can swallow what the client sends and
 * then cut the connection, as a network path that drops packets and then resets does: a
 * command sent meanwhile never reaches Redis, and the client's next connection works at
 * once. Whether that command runs later is then up to the client alone (whether it sends it
 * again after reconnecting).
 */
export interface BlackholeProxy {
  port: number;
  /** From now on, bytes from clients are dropped instead of forwarded. */
  swallow(): void;
  /** Closes every connection, and forwards normally again. */
  cut(): void;
  close(): Promise<void>;
}

export async function startBlackholeProxy(redisPort: number): Promise<BlackholeProxy> {
  const pairs = new Set<[client: Socket, server: Socket]>();
  let swallowing = false;
  const proxy = createServer((client) => {
    const server = connect({ port: redisPort, host: '127.0.0.1' });
    const pair: [Socket, Socket] = [client, server];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (!swallowing) server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => client.write(chunk));
    for (const socket of pair) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const cutAll = () => {
    for (const [client, server] of pairs) {
      client.destroy();
      server.destroy();
    }
    pairs.clear();
  };
  return {
    port: address.port,
    swallow() {
      swallowing = true;
    },
    cut() {
      cutAll();
      swallowing = false;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
