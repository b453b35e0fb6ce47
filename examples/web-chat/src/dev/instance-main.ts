/**
 * The entry of one instance process under `pnpm chat --instances <n>` (see instances.ts):
 * the model from the launcher's environment as in `pnpm chat` (handed over with the rest of
 * the configuration), errors on stderr.
 */
import { chooseModel } from './choose.js';
import { runInstanceProcess } from './instance.js';

await runInstanceProcess((config) => ({
  model: chooseModel(config.modelEnv).model,
  logger: console,
}));
