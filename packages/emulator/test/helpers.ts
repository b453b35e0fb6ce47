import { afterEach } from 'vitest';
import { type RunningEmulator, type StartEmulatorOptions, startEmulator } from '../src/index.js';

const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
});

/** Starts an emulator on a free loopback port, closed after the test. */
export async function start(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}

/** GET a REST path with the given key (none when null). */
export function get(
  emulator: RunningEmulator,
  path: string,
  key: string | null = emulator.keys.valid,
): Promise<Response> {
  return fetch(`${emulator.baseUrl}${path}`, { headers: key ? { 'x-api-key': key } : {} });
}

/** Send a JSON body to a REST path. */
export function send(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'x-api-key': emulator.keys.valid },
): Promise<Response> {
  return fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A clock that tests move by hand. */
export function manualClock(start: string): {
  now: () => Date;
  set(iso: string): void;
  advance(ms: number): void;
} {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    set: (iso) => {
      current = Date.parse(iso);
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** Searches websites and returns the parsed body. */
export async function searchWebsites(
  emulator: RunningEmulator,
  params: Record<string, string | string[]>,
) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, item);
  }
  const response = await get(emulator, `/v1/websites/search?${query}`);
  return {
    status: response.status,
    body: (await response.json()) as {
      websites: { id: string; url: string; best_commission_rate: number; name: string }[];
    },
  };
}
