/**
 * `pnpm demo` / `pnpm start [--yes] [request...]`: runs the LangChain shopping agent once
 * and prints every step. Offline by default (emulator in this process, scripted chat
 * model); the real service and model when CATALOG_* and OPENAI_API_KEY are set.
 */
import { runExampleCli } from '@catalogkit/example-shared';
import { runShoppingAgent } from './agent.js';
import { chooseChatModel } from './model.js';

await runExampleCli((options) => runShoppingAgent({ ...options, model: chooseChatModel() }));
