import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Every README of the repository: the root's and each package's and example's. */
export function readmes(): string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${folder}/${entry.name}/README.md`);
  return ['README.md', ...inFolder('packages'), ...inFolder('examples')].filter((path) =>
    existsSync(join(root, path)),
  );
}

const MARKER = /^<!--\s*docs-flow:\s*(\S+)\s*-->$/;

/** One `<!-- docs-flow: path -->` marker and the fenced block after it. */
export interface EmbeddedFlow {
  /** The committed file, from the repository's root. */
  path: string;
  /** The block's text (with a final newline, as a file has), if a ```ts block follows. */
  block: string | undefined;
  /** 0-based lines of the block's fences, when there is a block. */
  fences?: { open: number; close: number };
}

/** Each marker with the fenced block after it (blank lines aside). */
export function embeddedFlows(markdown: string): EmbeddedFlow[] {
  const lines = markdown.split('\n');
  return lines.flatMap((line, index): EmbeddedFlow[] => {
    const path = MARKER.exec(line.trim())?.[1];
    if (!path) return [];
    let open = index + 1;
    while (lines[open]?.trim() === '') open++;
    if (!/^```(ts|tsx)$/.test(lines[open] ?? '')) return [{ path, block: undefined }];
    const close = lines.findIndex((text, j) => j > open && text.startsWith('```'));
    if (close === -1) return [{ path, block: undefined }];
    return [
      { path, block: `${lines.slice(open + 1, close).join('\n')}\n`, fences: { open, close } },
    ];
  });
}

/** The README with each embedded block replaced by its file's text. */
export function withFlowsFromFiles(markdown: string, read: (path: string) => string): string {
  const lines = markdown.split('\n');
  // From the end, so earlier fences keep their line numbers.
  for (const flow of embeddedFlows(markdown).reverse()) {
    if (!flow.fences) continue;
    const text = read(flow.path).replace(/\n$/, '').split('\n');
    lines.splice(flow.fences.open + 1, flow.fences.close - flow.fences.open - 1, ...text);
  }
  return lines.join('\n');
}
