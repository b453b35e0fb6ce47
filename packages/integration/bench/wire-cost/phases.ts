import { summarizeLatencies } from '../latency-stats.js';
import { type Contender, websiteCalls, withTimeoutSignal } from './contenders.js';

/** Where one call's time went, in ms: before fetch was called, inside fetch, after it. */
interface PhaseSamples {
  label: string;
  beforeFetch: number[];
  inFetch: number[];
  afterFetch: number[];
}

/**
 * Times the phases of `websites.search` calls: a fetch wrapper notes when fetch is called
 * and when it resolves (the answer's headers are in). Calls run one at a time, so one set of
 * marks serves every call.
 */
class PhaseClock {
  readonly samples: PhaseSamples[] = [];
  #called = 0;
  #answered = 0;

  readonly fetch: typeof fetch = async (input, init) => {
    this.#called = performance.now();
    const response = await fetch(input, init);
    this.#answered = performance.now();
    return response;
  };

  /** A contender whose calls run `call` and record its phases under `label`. */
  contender(label: string, call: () => Promise<string[]>): Contender {
    const samples: PhaseSamples = { label, beforeFetch: [], inFetch: [], afterFetch: [] };
    this.samples.push(samples);
    return {
      id: 'phases',
      label: `${label} (phases timed)`,
      call: async () => {
        const start = performance.now();
        const links = await call();
        const end = performance.now();
        samples.beforeFetch.push(this.#called - start);
        samples.inFetch.push(this.#answered - this.#called);
        samples.afterFetch.push(end - this.#answered);
        return links;
      },
      close: async () => {},
    };
  }
}

/**
 * Two more `websites.search` contenders, raw fetch with a timeout signal and the client,
 * whose phases are timed (the wrapper costs both the same), and the table of their medians.
 */
export function phaseContenders(origin: string): {
  contenders: Contender[];
  table: (measuredCalls: number) => string;
} {
  const clock = new PhaseClock();
  const calls = websiteCalls(origin, clock.fetch);
  return {
    contenders: [
      clock.contender('fetch + JSON.parse, with a timeout signal', () =>
        withTimeoutSignal(calls.raw),
      ),
      clock.contender('CatalogClient.websites.search', calls.client),
    ],
    table: (measuredCalls) => phaseTable(clock.samples, measuredCalls),
  };
}

/** Medians of the measured calls (the last `measuredCalls`; warm-up calls are left out). */
function phaseTable(samples: PhaseSamples[], measuredCalls: number): string {
  const measured = (values: number[]) =>
    (summarizeLatencies(values.slice(-measuredCalls)).medianMs * 1000).toFixed(1);
  return [
    '| websites.search, phases timed | before fetch µs | in fetch µs | after fetch µs |',
    '|---|---:|---:|---:|',
    ...samples.map(
      (phase) =>
        `| ${phase.label} | ${measured(phase.beforeFetch)} | ${measured(phase.inFetch)} | ${measured(phase.afterFetch)} |`,
    ),
  ].join('\n');
}
