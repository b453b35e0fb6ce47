import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { run } from './run.js';
import { readManifest } from './workspace.js';

/**
 * The third-party versions the rehearsal's consumers install. A rehearsal installs what
 * `pins.json` records, so an upstream release cannot turn it red on its own; `pnpm
 * release:pins` shows how far the registry has moved (the drift table) and, with `--write`,
 * refreshes the file on purpose. `release:rehearse --newest` installs the registry's newest.
 */
export const PINS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'pins.json');

/** The lowest and the newest version of one supported major of a package. */
export interface MajorVersions {
  major: number;
  lowest: string;
  newest: string;
}

/** Each tracked package's supported majors, by name. */
export type Versions = Record<string, MajorVersions[]>;

/** A tracked package and the range of it we support (a peer range, or what a consumer uses). */
interface Tracked {
  name: string;
  range: string;
}

/** `pins.json`: the newest version tried of each supported major, by package and major. */
interface PinsFile {
  $comment?: string;
  refreshed: string;
  newest: Record<string, Record<string, string>>;
}

/** The packages the consumers install beyond ours, with the range each is tried within. */
export function trackedPackages(repo: string): Tracked[] {
  const peer = (folder: string, name: string) =>
    readManifest(join(repo, 'packages', folder)).peerDependencies?.[name] ?? '';
  const lastAlternative = (range: string) => range.split('||').at(-1)?.trim() ?? range;
  return [
    { name: 'ai', range: peer('ai-sdk', 'ai') },
    { name: 'zod', range: peer('core', 'zod') },
    { name: 'ioredis', range: peer('redis', 'ioredis') },
    { name: 'langchain', range: '^1.0.0' },
    { name: '@langchain/core', range: lastAlternative(peer('langchain', '@langchain/core')) },
    { name: 'next', range: '^16.0.0' },
    { name: 'react', range: '^19.0.0' },
    { name: 'react-dom', range: '^19.0.0' },
    { name: '@types/react', range: '^19.0.0' },
    { name: '@types/react-dom', range: '^19.0.0' },
    { name: '@types/json-schema', range: '^7.0.15' },
    { name: 'vite', range: '^8.0.0' },
  ];
}

const alternatives = (range: string) => range.split('||').map((a) => a.trim());
const floorOf = (alternative: string) => semver.minVersion(alternative)?.version ?? alternative;

function readPins(): PinsFile {
  return JSON.parse(readFileSync(PINS_FILE, 'utf8')) as PinsFile;
}

/**
 * The recorded versions: each major's floor from its range, its newest from `pins.json`.
 * Throws, naming the package and major, when the file has no pin for a supported major or the
 * pin is outside the range (a range changed since the pins were refreshed).
 */
export function pinnedVersions(repo: string): Versions {
  const { newest } = readPins();
  return Object.fromEntries(
    trackedPackages(repo).map(({ name, range }) => [
      name,
      alternatives(range).map((alternative) => {
        const lowest = floorOf(alternative);
        const major = semver.major(lowest);
        const pinned = newest[name]?.[String(major)];
        if (!pinned || !semver.satisfies(pinned, alternative))
          throw new Error(
            `pins.json: no pin of ${name} ${major} within ${alternative} (got ${pinned ?? 'none'}); refresh it with \`pnpm release:pins --write\``,
          );
        return { major, lowest, newest: pinned };
      }),
    ]),
  );
}

/** The newest of each supported major on the registry npm is configured with. */
export async function registryVersions(repo: string): Promise<Versions> {
  const entries = await Promise.all(
    trackedPackages(repo).map(async ({ name, range }) => {
      const { stdout } = await run('npm', ['view', name, 'versions', '--json'], {
        cwd: repo,
        timeoutMs: 120_000,
      });
      const published = (JSON.parse(stdout) as string[]).filter((v) => !semver.prerelease(v));
      const majors = alternatives(range).map((alternative) => {
        const lowest = floorOf(alternative);
        const newest = semver.maxSatisfying(published, alternative) ?? lowest;
        return { major: semver.major(lowest), lowest, newest };
      });
      return [name, majors] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Rows of the drift table: package, major, pinned, registry newest, what differs. */
export function driftRows(pinned: Versions, newest: Versions): string[][] {
  return Object.entries(newest).flatMap(([name, majors]) =>
    majors.map(({ major, newest: latest }) => {
      const pin = pinned[name]?.find((m) => m.major === major)?.newest ?? 'none';
      return [name, String(major), pin, latest, pin === latest ? '' : 'drift'];
    }),
  );
}

/** Writes `pins.json` from the registry's newest (kept comment, today's date). */
export function writePins(newest: Versions, today: string): void {
  const pins: PinsFile = {
    $comment: readPins().$comment,
    refreshed: today,
    newest: Object.fromEntries(
      Object.entries(newest).map(([name, majors]) => [
        name,
        Object.fromEntries(majors.map((m) => [String(m.major), m.newest])),
      ]),
    ),
  };
  writeFileSync(PINS_FILE, `${JSON.stringify(pins, null, 2)}\n`);
}
