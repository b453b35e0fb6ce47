import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type Background, startBackground } from './run.js';

/** A Verdaccio registry on loopback, with a throwaway user allowed to publish. */
export interface LocalRegistry {
  url: string;
  /** An npmrc (userconfig) with the registry and the user's token. */
  npmrc: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function verdaccioConfig(dir: string, uplink: string): string {
  // @catalogkit/* is served only from this registry (never proxied: what consumers get is
  // what was just published); everything else comes through the uplink, as from npm.
  return `storage: ${JSON.stringify(join(dir, 'storage'))}
auth:
  htpasswd:
    file: ${JSON.stringify(join(dir, 'htpasswd'))}
    max_users: 1
uplinks:
  upstream:
    url: ${JSON.stringify(uplink)}
    timeout: 60s
    maxage: 30m
packages:
  '@catalogkit/*':
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  '**':
    access: $all
    publish: $authenticated
    proxy: upstream
server:
  keepAliveTimeout: 60
log: { type: stdout, format: pretty, level: warn }
`;
}

/** Creates the throwaway user (`npm adduser` does the same request) and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'rehearsal';
  const response = await fetch(`${url}/-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `local-only-${process.pid}` }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token)
    throw new Error(`could not add a registry user: ${response.status}`);
  return body.token;
}

/**
 * Starts Verdaccio (from this package's pinned dev dependency) with its storage and config in
 * `dir`, listening on 127.0.0.1 on a free port, with `uplink` (the registry npm uses here) for
 * every package outside the @catalogkit scope.
 */
export async function startRegistry(
  dir: string,
  uplink: string,
  binDir: string,
): Promise<LocalRegistry> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(config, verdaccioConfig(dir, uplink));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server: Background = await startBackground(
    join(binDir, 'verdaccio'),
    ['--config', config, '--listen', `127.0.0.1:${port}`],
    { cwd: dir, ready: /http address/ },
  );
  const token = await addUser(url);
  const npmrc = join(dir, 'npmrc');
  writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return { url, npmrc, stop: server.stop };
}
