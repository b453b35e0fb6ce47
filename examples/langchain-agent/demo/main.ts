/**
 * `pnpm demo` / `pnpm start [--yes] [request...]`: runs the LangChain shopping agent once and
 * prints every step. Offline by default (emulator in this process, scripted chat model); the
 * real service and model when CATALOG_* and OPENAI_API_KEY are set.
 */
import { runExampleCli } from '@catalogkit/example-demo-support';

await runExampleCli(async () => (await import('./run.js')).runDemo);
