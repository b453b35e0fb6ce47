import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// madge's graph as an object (test/madge.d.ts declares only what the cycle test uses).
declare module 'madge' {
  interface MadgeResult {
    /** Each file and the files it imports, relative to the folder given. */
    obj(): Record<string, string[]>;
  }
}

/** File → the files it imports, paths relative to core/src (`http/retry.ts`). */
type ImportGraph = Record<string, string[]>;

/**
 * Core's leaves: modules that know nothing of HTTP, payments or the client. The wire
 * shapes (`schemas/`), the checks of requests and answers against them (`validation/`),
 * the error classes, the store of shared state (`store/`, issue 25: the rate-limit pause in
 * http/ reads it), and four small helpers (two are interfaces only: the logger's, and the
 * instrumentation's of issue 38, which http/'s call loop reports to). Anything may import
 * them; they import only each other. A folder's `index.ts` is a package entry (it may
 * re-export from anywhere), not a leaf.
 */
const LEAVES = [
  'async.ts',
  'is-record.ts',
  'logger.ts',
  'instrumentation.ts',
  'mcp-operations.ts',
  'errors/',
  'schemas/',
  'validation/',
  'store/',
];

/** One layer: the files it holds, and what beyond itself and the leaves they may import. */
interface Layer {
  name: string;
  holds: (file: string) => boolean;
  mayImport: (file: string) => boolean;
}

const isLeaf = (file: string) =>
  !file.endsWith('/index.ts') && LEAVES.some((leaf) => file === leaf || file.startsWith(leaf));

/**
 * The layers under the client: http/ sends requests and reads answers, and imports nothing
 * above it (the client's connection implements the `ServiceConnection` interface it
 * declares); payment/ sits on top of http/ and needs only its `WWW-Authenticate` parser
 * and the redactor's bound on a secret's length (a longer credential is refused before
 * sending); the payment step is handed the send step to wrap, so it needs no CallScope or
 * transport types.
 */
const LAYERS: Layer[] = [
  { name: 'leaves', holds: isLeaf, mayImport: isLeaf },
  {
    name: 'http/',
    holds: (file) => file.startsWith('http/'),
    mayImport: (file) => file.startsWith('http/') || isLeaf(file),
  },
  {
    name: 'payment/',
    holds: (file) => file.startsWith('payment/'),
    mayImport: (file) =>
      file.startsWith('payment/') ||
      file === 'http/www-authenticate.ts' ||
      file === 'http/redact.ts' ||
      isLeaf(file),
  },
];

/** Every import that breaks a layer's rule, as `layer: from → to`. */
function layerViolations(graph: ImportGraph, layers: Layer[]): string[] {
  return layers.flatMap((layer) =>
    Object.entries(graph)
      .filter(([file]) => layer.holds(file))
      .flatMap(([file, imports]) =>
        imports
          .filter((target) => !layer.mayImport(target))
          .map((to) => `${layer.name}: ${file} → ${to}`),
      ),
  );
}

async function coreGraph(): Promise<ImportGraph> {
  const graph = await madge(here('../../core/src'), {
    fileExtensions: ['ts'],
    tsConfig: here('../../../tsconfig.base.json'),
    // A type-only import ties the layers together too.
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  return graph.obj();
}

describe('core layering', () => {
  it('finds an upward import, a payment import of http/ internals and a leaf that is not one (the check can fail)', () => {
    const graph: ImportGraph = {
      'http/rest-call.ts': ['http/transport.ts', 'errors/api-errors.ts', 'client-options.ts'],
      'http/transport.ts': ['payment/paid-request.ts'],
      'payment/paid-request.ts': ['http/www-authenticate.ts', 'http/call-scope.ts', 'async.ts'],
      'errors/api-errors.ts': ['schemas/common.ts', 'http/redact.ts'],
      'errors/index.ts': ['errors/api-errors.ts', 'tools/built-in/update-memory.ts'],
      'schemas/common.ts': [],
    };
    expect(layerViolations(graph, LAYERS)).toEqual([
      'leaves: errors/api-errors.ts → http/redact.ts',
      'http/: http/rest-call.ts → client-options.ts',
      'http/: http/transport.ts → payment/paid-request.ts',
      'payment/: payment/paid-request.ts → http/call-scope.ts',
    ]);
  });

  it('reads a real graph: http/ and payment/ are there, with their imports', async () => {
    const graph = await coreGraph();
    expect(graph['http/rest-call.ts']).toContain('http/body-reader.ts');
    expect(graph['payment/paid-request.ts']).toContain('http/www-authenticate.ts');
    expect(graph['client-connection.ts']).toContain('payment/paid-request.ts');
  }, 60_000);

  it('http/ imports nothing above it, payment/ only the header parser and the secret bound of http/, leaves only leaves', async () => {
    expect(layerViolations(await coreGraph(), LAYERS)).toEqual([]);
  }, 60_000);
});
