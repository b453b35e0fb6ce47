/**
 * What a page ships, from the PUBLISHED packages: a fresh project installs `@catalogkit/core`
 * from the rehearsal's registry, with zod at the version core is tested with, and each page
 * below is bundled with everything it pulls in (zod included), minified and gzipped. The web
 * chat example's page is measured from its own Vite build (src/example-copies.ts). Budgets:
 * size-budget.json `pages`; the rehearsal fails past one, or for a page without one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, run } from './run.js';
import { type BundleSize, measurePage, sizeOf } from './size.js';

/** One page: its name (the key of its budget) and the module it runs. */
export interface PageSpec {
  name: string;
  /** Module source: what it exports is what the page uses. */
  entry: string;
}

/** The pages budgeted from published packages (issue 28). */
export const PAGES: readonly PageSpec[] = [
  {
    name: 'token helpers: ConversationTokenManager + ChatSession (@catalogkit/core/conversations)',
    entry: `export { ChatSession, ConversationTokenManager } from '@catalogkit/core/conversations';`,
  },
  {
    name: 'CatalogClient alone, with its validation (@catalogkit/core)',
    entry: `export { CatalogClient } from '@catalogkit/core';`,
  },
];

/** The budget key of the web chat example's page. */
export const WEB_CHAT_PAGE = 'examples/web-chat page (Vite build, every JavaScript file)';

/** A page measured. */
export interface MeasuredPage extends BundleSize {
  name: string;
}

/** A page measured, with its budget. */
export interface PageReport extends MeasuredPage {
  budget: number | undefined;
}

/** Where the size project is made and what it installs. */
export interface PageContext {
  /** An empty folder for the project. */
  dir: string;
  registryUrl: string;
  /** The version of `@catalogkit/core` just published. */
  coreVersion: string;
  /** The zod core is tested with (its devDependency). */
  zodVersion: string;
}

/** Installs the published core (and zod) into a fresh project, then measures every page. */
export async function measurePages(context: PageContext): Promise<MeasuredPage[]> {
  const manifest = {
    name: 'rehearsal-page-sizes',
    private: true,
    type: 'module',
    dependencies: { '@catalogkit/core': context.coreVersion, zod: context.zodVersion },
  };
  writeFileSync(join(context.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(context.dir, '.npmrc'),
    `registry=${context.registryUrl}/\nfund=false\naudit=false\n`,
  );
  await run('npm', ['install', '--ignore-scripts'], { cwd: context.dir, env: cleanEnv() });
  const measured: MeasuredPage[] = [];
  for (const page of PAGES) {
    measured.push({ name: page.name, ...(await measurePage(page.entry, context.dir)) });
  }
  return measured;
}

/**
 * The JavaScript a built page ships: every `.js` file under `dir` (Vite's `dist/assets`),
 * each gzipped on its own as a server sends it, summed.
 */
export function builtJavaScript(dir: string): BundleSize {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.js'),
  );
  return files.reduce<BundleSize>(
    (total, file) => {
      const size = sizeOf(readFileSync(join(dir, file)));
      return {
        minified: total.minified + size.minified,
        gzipped: total.gzipped + size.gzipped,
      };
    },
    { minified: 0, gzipped: 0 },
  );
}

/** True when a page is past its budget, or has none. */
export function overPageBudget(page: PageReport): boolean {
  return page.budget === undefined || page.gzipped > page.budget;
}
