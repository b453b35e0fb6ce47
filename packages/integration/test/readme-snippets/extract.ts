/** A ```ts block of a README, with what its markers say. */
export interface Snippet {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Declarations the snippet assumes (a `<!-- snippet-prelude ... -->` comment before it). */
  prelude: string;
  /** Why it is not checked (`<!-- snippet-skip: why -->` before it), if it is not. */
  skip?: string;
  /**
   * Packages compiled in place of others (`<!-- snippet-alias: ai=ai-v5 -->` before it), for
   * a snippet written for another major version, which the host has under an alias.
   */
  aliases: Record<string, string>;
}

const PRELUDE = /<!--\s*snippet-prelude\s*\n([\s\S]*?)-->\s*$/;
// A `docs-flow` block is a committed file, type-checked and run by packages/docs-tests.
const SKIP = /<!--\s*(?:snippet-skip|docs-flow):\s*([^>]*?)\s*-->\s*$/;
const ALIAS = /<!--\s*snippet-alias:\s*([^>]*?)\s*-->\s*(?:<!--\s*snippet-prelude[\s\S]*?-->\s*)?$/;

function aliasesOf(marker: string | undefined): Record<string, string> {
  const pairs = (marker ?? '').split(/[\s,]+/).filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => pair.split('=') as [string, string]));
}

/**
 * The ```ts blocks of a Markdown text. A block may be preceded (blank lines aside) by a
 * `<!-- snippet-prelude ... -->` comment holding declarations it assumes (hidden from
 * readers), or by `<!-- snippet-skip: reason -->` for the rare block meant to be partial.
 */
export function extractSnippets(markdown: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  // Markers are read from the text since the previous fence closed only.
  let previousEnd = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('```') && !/^```(ts|typescript)\s*$/.test(lines[i]!)) {
      const close = lines.findIndex((text, j) => j > i && text.startsWith('```'));
      if (close === -1) break;
      previousEnd = close + 1;
      i = close;
      continue;
    }
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((text, j) => j > i && text.startsWith('```'));
    if (end === -1) break;
    const before = lines.slice(previousEnd, i).join('\n').trimEnd();
    const skip = SKIP.exec(before)?.[1];
    snippets.push({
      line: i + 1,
      code: lines.slice(i + 1, end).join('\n'),
      prelude: PRELUDE.exec(before)?.[1] ?? '',
      ...(skip === undefined ? {} : { skip }),
      aliases: aliasesOf(ALIAS.exec(before)?.[1]),
    });
    previousEnd = end + 1;
    i = end;
  }
  return snippets;
}

/**
 * One module per snippet: the prelude, then the code, then `export {}` so top-level
 * `await` and declarations stay in their own module.
 */
export function snippetModule(snippet: Snippet, source: string): string {
  return [`// ${source}:${snippet.line}`, snippet.prelude, snippet.code, 'export {};', ''].join(
    '\n',
  );
}
