import { ConfigurationError } from '@catalogkit/core';
import {
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * What a 2026-07-28 confirmation's `requestState` seals: the tool asked about and a digest
 * of the canonical JSON of its parsed input. An answer counts only when it comes back with
 * the state minted for that very question, so an accept can be neither sent unasked nor
 * moved to another change.
 */
interface AskedAbout {
  tool: string;
  input: string;
}

/** Signs and checks the proof of which question an answer answers. */
export interface ConfirmationSeal {
  /** The `requestState` of the question about `tool` run with `parsedInput`. */
  mint(tool: string, parsedInput: unknown): Promise<string>;
  /**
   * Whether `state` was minted by this server (or one sharing its key) for this question and
   * is answered here for the first time (spent by this call).
   */
  matches(state: unknown, ctx: ServerContext, tool: string, parsedInput: unknown): Promise<boolean>;
}

/** How long a minted state is honoured, in seconds (the SDK codec's default). */
const STATE_TTL_SECONDS = 600;
/** The most spent states one process remembers; past it the oldest is forgotten. */
const MAX_SPENT = 10_000;

/**
 * The states already answered in this process, each until it expires: an answer is used
 * once, so a replayed accept asks again. Recorded before the change is sent.
 */
function spentStates(): (state: string) => boolean {
  const spent = new Map<string, number>();
  return (state) => {
    const now = Date.now();
    for (const [old, expires] of spent) {
      if (expires > now && spent.size < MAX_SPENT) break;
      spent.delete(old);
    }
    if (spent.has(state)) return false;
    spent.set(state, now + STATE_TTL_SECONDS * 1000);
    return true;
  };
}

/** The HMAC key's least length, in bytes (the SDK codec refuses shorter ones). */
const MIN_KEY_BYTES = 32;

/** JSON with object keys sorted at every depth: one text for one value, whatever the order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, nested: unknown) => {
    if (nested === null || typeof nested !== 'object' || Array.isArray(nested)) return nested;
    const entries = Object.entries(nested).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  });
}

async function digestOf(parsedInput: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(parsedInput) ?? 'null');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function keyOf(key: string | Uint8Array | undefined): Uint8Array {
  if (key === undefined) return crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES));
  const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  if (!(bytes instanceof Uint8Array) || bytes.length < MIN_KEY_BYTES) {
    throw new ConfigurationError(
      `Invalid MCP server options: confirmationKey must be a string or Uint8Array of at least ${MIN_KEY_BYTES} bytes`,
    );
  }
  return bytes;
}

/**
 * The seal of this server's confirmations: a random key per process unless `key` is given
 * (the same key on every instance behind one load balancer, so any of them accepts an
 * answer to a question another asked). A state under an unknown key never matches, nor one
 * this process has seen answered before (replay; each instance remembers its own).
 */
export function confirmationSeal(key: string | Uint8Array | undefined): ConfirmationSeal {
  const codec: RequestStateCodec<AskedAbout> = createRequestStateCodec<AskedAbout>({
    key: keyOf(key),
    ttlSeconds: STATE_TTL_SECONDS,
  });
  const firstUse = spentStates();
  return {
    mint: async (tool, parsedInput) => codec.mint({ tool, input: await digestOf(parsedInput) }),
    async matches(state, ctx, tool, parsedInput) {
      if (typeof state !== 'string') return false;
      try {
        const asked = await codec.verify(state, ctx);
        const same = asked.tool === tool && asked.input === (await digestOf(parsedInput));
        return same && firstUse(state);
      } catch {
        // Forged, expired, malformed or under another key: no proof, so no answer.
        return false;
      }
    },
  };
}
