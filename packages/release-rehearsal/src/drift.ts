/**
 * `pnpm release:pins`: how far the registry has moved from `pins.json`, as a table (package,
 * major, pinned, newest). Never fails on drift: refreshing the pins is a decision, taken with
 * `pnpm release:rehearse --newest` first and then `pnpm release:pins --write`.
 */

import { driftRows, PINS_FILE, pinnedVersions, registryVersions, writePins } from './pins.js';
import { table } from './table.js';
import { repoRoot } from './workspace.js';

const newest = await registryVersions(repoRoot);
const rows = driftRows(pinnedVersions(repoRoot), newest);
const drifted = rows.filter((row) => row[4] === 'drift').length;
process.stdout.write(
  `Drift: the registry's newest against ${PINS_FILE}\n${table(['package', 'major', 'pinned', 'newest', ''], rows)}\n` +
    `${drifted} of ${rows.length} pins behind the registry\n`,
);
if (process.argv.includes('--write')) {
  writePins(newest, new Date().toISOString().slice(0, 10));
  process.stdout.write(`wrote ${PINS_FILE}\n`);
}
