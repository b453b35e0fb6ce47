import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map, as esbuild writes it (version 3). */
interface SourceMap {
  sources: string[];
  mappings: string;
}

/** The fields of one mapping segment (base64 VLQ, each relative to the previous segment's). */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new Error(`not a source map segment: ${segment}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
}

/**
 * The sources at least one piece of output code maps to. esbuild lists every source of its
 * inputs' maps in `sources`, also those whose code tree shaking dropped; only the mappings
 * say which ones are really in the bundle.
 */
export function mappedSources(map: SourceMap): string[] {
  const used = new Set<number>();
  let source = 0;
  for (const line of map.mappings.split(';')) {
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields = decodeSegment(segment);
      if (fields.length < 4) continue;
      source += fields[1] ?? 0;
      used.add(source);
    }
  }
  return [...used].map((index) => map.sources[index] ?? `(source ${index})`).sort();
}

/** What bundling some names of one entry pulls in. */
export interface NamesBundle {
  /** Core's source files whose code is in the bundle, relative to `core/src` (`errors/api-errors.ts`). */
  sources: string[];
  /** Minified and gzipped size in bytes, zod included. */
  gzipBytes: number;
}

/**
 * Bundles `export { ...names } from '<file>'` (a built core entry, with its source maps) the
 * way an application's bundler does: minified, tree-shaken, zod and other packages external.
 * The output's source map, composed through the entry's own, tells which of core's source
 * files the bundle still holds.
 */
export async function bundleNames(file: string, names: readonly string[]): Promise<NamesBundle> {
  const result = await build({
    stdin: {
      contents: `export { ${names.join(', ')} } from ${JSON.stringify(file)};`,
      resolveDir: '/',
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    minify: true,
    sourcemap: 'external',
    outfile: 'bundle.js',
    write: false,
    // zod is bundled, not external: an import of an external package stays in the bundle
    // even when nothing of it is used (esbuild cannot know it is pure), and would be counted
    // against the core file that imports it. zod's own files are left out below.
    logLevel: 'silent',
  });
  const code = result.outputFiles.find((output) => output.path.endsWith('.js'));
  const map = result.outputFiles.find((output) => output.path.endsWith('.js.map'));
  if (!code || !map) throw new Error('esbuild wrote no bundle or no source map');
  const sources = mappedSources(JSON.parse(map.text) as SourceMap)
    .filter((path) => !path.includes('node_modules'))
    .map((path) => /(?:^|\/)src\/(.+)$/.exec(path)?.[1] ?? path)
    .sort();
  return { sources, gzipBytes: gzipSync(code.contents, { level: 9 }).length };
}

/**
 * The code a bundler keeps from `import '<file>'` when nothing it exports is used, with the
 * `sideEffects: false` promise of its package.json set aside for that file: the
 * module-level statements it cannot prove free of side effects (`new Set('a b'.split(' '))`,
 * a call to a zod builder, a loop filling a table), and what they use. Empty for a pure
 * module. Packages stay external and count as pure.
 */
export async function moduleLevelCode(file: string): Promise<string> {
  const result = await build({
    stdin: { contents: `import ${JSON.stringify(file)};`, resolveDir: '/', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    minify: true,
    write: false,
    // zod is bundled, not external: an import of an external package stays in the bundle
    // even when nothing of it is used (esbuild cannot know it is pure), and would be counted
    // against the core file that imports it. zod's own files are left out below.
    logLevel: 'silent',
    plugins: [
      {
        name: 'ignore-side-effects-field',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
            if (args.kind === 'entry-point' || args.pluginData === 'resolved') return undefined;
            const resolved = await pluginBuild.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              importer: args.importer,
              pluginData: 'resolved',
            });
            if (resolved.errors.length > 0) return undefined;
            // The module asked about runs as if side-effectful; what it imports keeps its
            // package's own promise, so each module answers for its own statements only.
            // Packages count as pure: only the workspace's own statements are in question.
            if (resolved.external === true) return { ...resolved, sideEffects: false };
            const asked = args.importer === '<stdin>';
            return { ...resolved, sideEffects: asked ? true : resolved.sideEffects };
          });
        },
      },
    ],
  });
  return result.outputFiles[0]?.text.trim() ?? '';
}
