import { isBuiltin } from 'node:module';
import { build, type Plugin } from 'esbuild';

/**
 * Globals that exist in Node but not in browsers or edge workers. Reading one of them as a
 * free variable throws a ReferenceError there; core reaches them only as
 * `globalThis.process?.…`, which is undefined-safe.
 */
export const NODE_ONLY_GLOBALS = [
  'process',
  'Buffer',
  'require',
  'module',
  '__dirname',
  '__filename',
  'global',
  'setImmediate',
  'clearImmediate',
] as const;

const SENTINEL_PREFIX = '__catalogkit_node_global_';

/** What a file needs from Node: built-in modules it imports and Node globals it reads. */
export interface NodeApiUses {
  /** Every bare specifier imported or required (packages and built-ins). */
  bareImports: string[];
  /** Specifiers of imported or required Node built-ins (`node:fs`, `path`, …). */
  builtinImports: string[];
  /** Node-only globals read as free variables, other than as the operand of `typeof`. */
  unguardedGlobals: string[];
}

/** Marks every bare specifier external and remembers it, so nothing outside is read. */
function recordBareImports(specifiers: Set<string>): Plugin {
  return {
    name: 'record-bare-imports',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
        specifiers.add(args.path);
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Finds Node API uses in a module and the local files it imports (its own code only: bare
 * imports such as zod are not followed). esbuild's `define` replaces only free variables, so
 * a sentinel in the output is exactly a read of the Node global, never a local of that name.
 * @param checkGlobals false for CommonJS output, whose wrapper uses `require` and `module`.
 */
export async function findNodeApiUses(entry: string, checkGlobals = true): Promise<NodeApiUses> {
  const specifiers = new Set<string>();
  const define = Object.fromEntries(
    checkGlobals ? NODE_ONLY_GLOBALS.map((name) => [name, `${SENTINEL_PREFIX}${name}`]) : [],
  );
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    define,
    plugins: [recordBareImports(specifiers)],
  });
  const code = result.outputFiles.map((file) => file.text).join('\n');
  return {
    bareImports: [...specifiers].sort(),
    builtinImports: [...specifiers].filter((specifier) => isBuiltin(specifier)).sort(),
    unguardedGlobals: checkGlobals ? unguardedGlobalReads(code) : [],
  };
}

function unguardedGlobalReads(code: string): string[] {
  const reads = code.matchAll(new RegExp(`(typeof\\s+)?${SENTINEL_PREFIX}(\\w+)`, 'g'));
  const names = [...reads].filter((match) => !match[1]).map((match) => match[2] ?? '');
  return [...new Set(names)].sort();
}
