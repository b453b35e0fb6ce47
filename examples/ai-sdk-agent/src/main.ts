/**
 * `pnpm demo` / `pnpm start [--yes] [request...]`: runs the AI SDK shopping agent once and
 * prints every step. Offline by default (emulator in this process, scripted model); the
 * real service and model when CATALOG_* and OPENAI_API_KEY are set.
 */
import { runExampleCli } from '@catalogkit/example-shared';
import { runShoppingAgent } from './agent.js';
import { chooseModel } from './model.js';

await runExampleCli((options) => runShoppingAgent({ ...options, model: chooseModel() }));
