// Rewrites every README block marked `<!-- docs-flow: path -->` with that file's text:
// `pnpm --filter @catalogkit/docs-tests sync` after changing a flow.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmes, root, withFlowsFromFiles } from './test/support/readme-flows.js';

for (const readme of readmes()) {
  const path = join(root, readme);
  const before = readFileSync(path, 'utf8');
  const after = withFlowsFromFiles(before, (flow) => readFileSync(join(root, flow), 'utf8'));
  if (after !== before) {
    writeFileSync(path, after);
    process.stdout.write(`updated ${readme}\n`);
  }
}
