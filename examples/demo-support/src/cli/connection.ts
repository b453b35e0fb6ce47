import { type Collection, CollectionSchema } from '@catalogkit/core/schemas';

/** Environment variables that point the examples at a real deployment of the service. */
export const SERVICE_ENV_VARS = ['CATALOG_API_KEY', 'CATALOG_BASE_URL', 'CATALOG_MCP_URL'] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Where the examples' catalog tools send their requests. */
export interface CatalogConnection {
  /** `emulator`: an in-process emulator on loopback; `service`: the deployment named by CATALOG_*. */
  backend: 'emulator' | 'service';
  /** Options for the tools' CatalogClient. The key is only ever passed here, never printed. */
  clientOptions: { apiKey: string; baseUrl: string; mcpUrl: string };
  /**
   * Reads a collection straight from the emulator's state, to show that an update really
   * landed. Undefined against the real service, which has no read operation for collections.
   */
  readCollection?: (collectionId: string) => Collection | undefined;
  /** Stops the emulator (nothing to do for the real service). */
  close(): Promise<void>;
}

function isSet(env: Env, name: string): boolean {
  return (env[name]?.trim() ?? '') !== '';
}

function serviceConnection(env: Env): CatalogConnection {
  const missing = SERVICE_ENV_VARS.filter((name) => !isSet(env, name));
  if (missing.length > 0) {
    throw new Error(
      `To use the real service set ${SERVICE_ENV_VARS.join(', ')}; missing: ${missing.join(', ')}. ` +
        'Unset CATALOG_BASE_URL and CATALOG_MCP_URL to run offline against the emulator.',
    );
  }
  return {
    backend: 'service',
    clientOptions: {
      apiKey: env.CATALOG_API_KEY?.trim() ?? '',
      baseUrl: env.CATALOG_BASE_URL?.trim() ?? '',
      mcpUrl: env.CATALOG_MCP_URL?.trim() ?? '',
    },
    close: async () => {},
  };
}

async function emulatorConnection(): Promise<CatalogConnection> {
  // Imported here so that a run against the real service never loads the emulator.
  const { startEmulator } = await import('@catalogkit/emulator');
  const emulator = await startEmulator({ port: 0 });
  return {
    backend: 'emulator',
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
    readCollection: (collectionId) => {
      const stored = emulator.state.collections.get(collectionId);
      // Parsing makes a copy, so later updates do not change what the caller already printed.
      return stored === undefined ? undefined : CollectionSchema.parse(stored);
    },
    close: () => emulator.close(),
  };
}

/**
 * Connects the examples to the catalog: the real service when CATALOG_BASE_URL or
 * CATALOG_MCP_URL is set (then all three CATALOG_* variables are required), otherwise an
 * emulator started in-process on a free loopback port, with its valid demo key.
 */
export async function connectCatalog(env: Env = process.env): Promise<CatalogConnection> {
  if (isSet(env, 'CATALOG_BASE_URL') || isSet(env, 'CATALOG_MCP_URL'))
    return serviceConnection(env);
  return emulatorConnection();
}
