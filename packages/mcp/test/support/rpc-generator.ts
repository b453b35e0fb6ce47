/*
 * Generated hostile requests to the MCP HTTP handler: valid JSON-RPC messages first, then
 * broken the ways a careless or hostile client breaks them (fields dropped or retyped,
 * wrong versions and ids, batches, truncated or non-UTF-8 bodies, odd headers and methods).
 * Seeded, so a failing run is replayed with CATALOGKIT_FUZZ_SEED.
 */

import { searchCatalog, searchWebsites, updateCollection } from './inputs.js';

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff x',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00%2e%2e',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '$' + '{process.env.CATALOG_API_KEY}',
  '{{key}}',
  'x'.repeat(5_000),
] as const;

function hostileString(random: Random): string {
  if (random.chance(0.3)) {
    return Array.from({ length: random.int(40) }, () =>
      String.fromCharCode(random.int(0x10000)),
    ).join('');
  }
  return random.pick(HOSTILE_STRINGS);
}

const NUMBERS = [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 5e-324] as const;

/** Any JSON value, nested at most `depth` deep. */
export function jsonValue(random: Random, depth = 3): unknown {
  const kind = random.int(depth > 0 ? 7 : 5);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick(NUMBERS);
    case 3:
    case 4:
      return hostileString(random);
    case 5:
      return Array.from({ length: random.int(4) }, () => jsonValue(random, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.int(4) }, () => [
          hostileString(random),
          jsonValue(random, depth - 1),
        ]),
      );
  }
}

type Message = Record<string, unknown>;

const CALLS: readonly (() => Message)[] = [
  () => ({ name: 'search_catalog', arguments: searchCatalog('shoes') }),
  () => ({ name: 'search_websites', arguments: searchWebsites('shop', { country: 'GB' }) }),
  () => ({ name: 'update_collection', arguments: updateCollection('col_1', { name: 'X' }) }),
  () => ({ name: 'search_everything', arguments: {} }),
];

/** A message a well-behaved client could send. */
export function validMessage(random: Random, id: number): Message {
  switch (random.int(7)) {
    case 6: {
      // Names a request of the same batch, or none.
      const params = { requestId: id - random.int(3), reason: 'fuzz' };
      return { jsonrpc: '2.0', method: 'notifications/cancelled', params };
    }
    case 0: {
      const clientInfo = { name: 'fuzz', version: '1.0.0' };
      const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo };
      return { jsonrpc: '2.0', id, method: 'initialize', params };
    }
    case 1:
      return { jsonrpc: '2.0', id, method: 'tools/list' };
    case 2:
      return { jsonrpc: '2.0', id, method: 'ping' };
    case 3:
      return { jsonrpc: '2.0', method: 'notifications/initialized' };
    default:
      return { jsonrpc: '2.0', id, method: 'tools/call', params: random.pick(CALLS)() };
  }
}

/** Paths into `value` (objects and arrays), the root included. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  return [
    prefix,
    ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key])),
  ];
}

function withChange(value: unknown, path: string[], change: (old: unknown) => unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return change(value);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...value };
  copy[key] = withChange(copy[key], rest, change);
  return copy;
}

const DELETE = Symbol('delete');

function dropDeleted(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== DELETE).map(dropDeleted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== DELETE)
      .map(([key, item]) => [key, dropDeleted(item)]),
  );
}

/** `message` with one to three of its values replaced by any JSON, or removed. */
export function mutated(random: Random, message: Message): unknown {
  let value: unknown = message;
  for (let i = 0, n = 1 + random.int(3); i < n; i++) {
    const path = random.pick(pathsOf(value));
    value = withChange(value, path, () => (random.chance(0.3) ? DELETE : jsonValue(random)));
  }
  return value === DELETE ? undefined : dropDeleted(value);
}

/** One HTTP request to send to the handler. */
export interface HostileRequest {
  method: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | undefined;
  /** What was sent, for the failure message. */
  description: string;
}

function bodyText(random: Random): string {
  const id = random.int(1000);
  const message = validMessage(random, id);
  switch (random.int(6)) {
    case 0:
      return JSON.stringify(message);
    case 1: {
      const batch = Array.from({ length: random.int(14) }, (_, i) => {
        // Now and then an id an earlier message of the batch has (the server refuses it).
        const one = validMessage(random, random.chance(0.15) ? id + random.int(i + 1) : id + i);
        return random.chance(0.5) ? one : mutated(random, one);
      });
      return JSON.stringify(batch);
    }
    case 2: {
      const text = JSON.stringify(message);
      return text.slice(0, random.int(text.length));
    }
    case 3:
      return JSON.stringify(jsonValue(random)) ?? '';
    default:
      return JSON.stringify(mutated(random, message)) ?? '';
  }
}

function bodyBytes(random: Random): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(bodyText(random));
  if (!random.chance(0.1) || bytes.length === 0) return bytes;
  // A byte that is never UTF-8, somewhere in the body.
  const broken = new Uint8Array(bytes);
  broken[random.int(broken.length)] = random.pick([0xff, 0xc0, 0x80, 0xfe]);
  return broken;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/json-rpc',
  '',
];
const ACCEPTS = [
  'application/json, text/event-stream',
  'application/json',
  'text/event-stream',
  '*/*',
  '',
];
const VERSIONS = ['2025-06-18', '2025-03-26', '1999-01-01', 'x'.repeat(300), ''];

function headersOf(random: Random): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': random.chance(0.8) ? 'application/json' : random.pick(CONTENT_TYPES),
    accept: random.chance(0.8) ? (ACCEPTS[0] as string) : random.pick(ACCEPTS),
  };
  if (random.chance(0.2)) headers['mcp-protocol-version'] = random.pick(VERSIONS);
  if (random.chance(0.1))
    headers['mcp-session-id'] = hostileString(random).replace(/[^\x21-\x7e]/g, 'x');
  return headers;
}

/** A hostile HTTP request: mostly POSTs of broken JSON-RPC, sometimes another method. */
export function hostileRequest(random: Random): HostileRequest {
  const method = random.chance(0.92)
    ? 'POST'
    : random.pick(['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']);
  const headers = headersOf(random);
  const body = method === 'GET' ? undefined : bodyBytes(random);
  const shown = body ? new TextDecoder().decode(body).slice(0, 300) : '';
  return { method, headers, body, description: `${method} ${JSON.stringify(headers)} ${shown}` };
}
