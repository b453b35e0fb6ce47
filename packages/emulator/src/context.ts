import { type CatalogData, catalogData, DEFAULT_SEED } from './data/index.js';
import { FaultController } from './faults.js';
import {
  type Clock,
  DEFAULT_KEYS,
  DEFAULT_RATE_LIMITS,
  type EmulatorKeys,
  type EmulatorOptions,
  type McpResponseMode,
  type RateLimits,
  USER_IDS,
} from './options.js';
import { PaymentDesk } from './payment/desk.js';
import { DailyRateLimiter } from './rate-limit.js';
import { EmulatorState } from './state.js';
import { RequestStats } from './stats.js';

/** Everything the routes share for one emulator instance. */
export class EmulatorContext {
  readonly data: CatalogData;
  readonly state: EmulatorState;
  readonly keys: EmulatorKeys;
  readonly rateLimits: RateLimits;
  readonly rateLimiter: DailyRateLimiter;
  readonly stats = new RequestStats();
  readonly faults: FaultController;
  readonly mcpResponse: McpResponseMode;
  /** Whether `lookup_catalog` and `get_product` are offered. */
  readonly lookupTools: boolean;
  readonly now: Clock;
  readonly maxTokenTtlSeconds: number;
  /** Machine payments of the `paymentRequired` key: challenges, credentials, receipts. */
  readonly payments: PaymentDesk;
  private readonly usersByKey: Map<string, string>;

  constructor(options: EmulatorOptions = {}) {
    const seed = options.seed ?? DEFAULT_SEED;
    this.data = catalogData(seed);
    this.state = new EmulatorState(this.data);
    this.keys = { ...DEFAULT_KEYS, ...options.keys };
    this.rateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
    this.now = options.now ?? (() => new Date());
    this.payments = new PaymentDesk(options.payment);
    this.rateLimiter = new DailyRateLimiter(this.now);
    this.faults = new FaultController(seed, options.faults);
    this.mcpResponse = options.mcpResponse ?? 'sse';
    this.lookupTools = options.lookupTools ?? true;
    this.maxTokenTtlSeconds = positiveOrInfinity(options.maxTokenTtlSeconds);
    this.usersByKey = new Map([
      [this.keys.valid, USER_IDS.valid],
      [this.keys.otherUser, USER_IDS.otherUser],
    ]);
  }

  /** The user owning a working key, or undefined for any other value. */
  userIdForKey(key: string | undefined): string | undefined {
    return key === undefined ? undefined : this.usersByKey.get(key);
  }
}

function positiveOrInfinity(seconds: number | undefined): number {
  if (seconds === undefined) return Number.POSITIVE_INFINITY;
  if (!(seconds > 0)) throw new RangeError(`maxTokenTtlSeconds must be > 0, got ${seconds}`);
  return seconds;
}
