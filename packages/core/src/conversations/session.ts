import { abortable, runWithinTime, SingleFlight } from '../async.js';
import { AbortError, ProtocolError } from '../errors/transport-errors.js';
import type { Turn } from '../schemas/conversations.js';
import { type CatalogStore, checkStore } from '../store/catalog-store.js';
import { MemoryCatalogStore } from '../store/memory-store.js';
import { readThroughLocked } from '../store/read-through.js';
import { requireId, requireMessage, requireToken } from '../validation/text.js';
import type { TurnInput } from './service-calls.js';
import {
  type CallOptions,
  ConversationTokenManager,
  type ConversationTokenManagerOptions,
  type MintedToken,
} from './token-manager.js';

/** Options of {@link ChatSession}. */
export interface ChatSessionOptions<TTurn = Turn> {
  /** Your id for this chat session; names its entries in the store. */
  sessionId: string;
  /** Creates the conversation, answering `{ conversation_id }`; once, aborted after 25 s. */
  createConversation: (context: { signal: AbortSignal }) => Promise<object>;
  /** Mints a token for the conversation (see `createHttpTokenMinter`). */
  mintToken: (context: { conversationId: string; signal: AbortSignal }) => Promise<MintedToken>;
  /** Sends one turn (see `createTurnSender`); a 401 gets one refresh and one retry. */
  sendTurn: (turn: TurnInput) => Promise<TTurn>;
  /** Shared by all instances serving the session; default a private in-memory store. */
  store?: CatalogStore;
  /** How long the conversation id is remembered in the store (default 24 hours). */
  conversationTtlMs?: number;
  /** Lifecycle options of the session's token. */
  tokenOptions?: Omit<ConversationTokenManagerOptions, 'mint' | 'key' | 'store'>;
}

/** A create that takes longer is aborted, so it never outlives the lock's lease (+5 s). */
const CREATE_TIMEOUT_MS = 25_000;

/**
 * One shopper's chat: creates the conversation once (also across instances sharing the store),
 * keeps one token refreshed, sends a turn only when `send` is called. Nothing runs on a timer.
 */
export class ChatSession<TTurn = Turn> {
  readonly #options: ChatSessionOptions<TTurn>;
  /** Trimmed: the store keys use this, never the option. */
  readonly #sessionId: string;
  readonly #store: CatalogStore;
  readonly #lifecycle = new AbortController();
  readonly #creating = new SingleFlight<string>();
  #conversationId: string | undefined;
  #tokens: ConversationTokenManager | undefined;

  constructor(options: ChatSessionOptions<TTurn>) {
    this.#sessionId = requireId(options?.sessionId, 'ChatSession', 'sessionId');
    this.#options = options;
    const clock = options.tokenOptions?.now;
    this.#store = checkStore(options.store ?? new MemoryCatalogStore(clock ? { now: clock } : {}));
  }

  /** The conversation's id, creating the conversation on first use only. */
  async conversationId(options: CallOptions = {}): Promise<string> {
    this.#conversationId ??= await abortable(
      this.#creating.run(() => this.#findOrCreate()),
      options.signal,
    );
    return this.#conversationId;
  }

  /** Sends the shopper's message as one turn; an empty one is a RequestValidationError naming `message`. */
  async send(message: string, options: CallOptions = {}): Promise<TTurn> {
    requireMessage(message, 'ChatSession.send');
    const conversationId = await this.conversationId(options);
    return this.#tokenManager(conversationId).withToken((token) => {
      // Checked before any header is built: a CR/LF would end as an error quoting the token.
      const checked = requireToken(token, 'ChatSession.send');
      const { signal } = options;
      return this.#options.sendTurn({ conversationId, token: checked, message, signal });
    }, options);
  }

  /** The session's current token (e.g. to hand to a browser from your backend). */
  async getToken(options: CallOptions = {}): Promise<string> {
    return this.#tokenManager(await this.conversationId(options)).getToken(options);
  }

  /** Aborts work in progress; later calls reject. */
  close(): void {
    this.#tokens?.close();
    this.#lifecycle.abort(new AbortError('ChatSession (closed)'));
  }

  #findOrCreate(): Promise<string> {
    const closeSignal = this.#lifecycle.signal;
    return readThroughLocked({
      store: this.#store,
      key: `${this.#sessionId}:conversation`,
      accept: (stored) => stored.value || undefined,
      create: async () => {
        const what = 'Creating the conversation';
        const create = (signal: AbortSignal) => this.#options.createConversation({ signal });
        const created = await runWithinTime(create, {
          timeoutMs: CREATE_TIMEOUT_MS,
          closeSignal,
          what,
        });
        const id = (created as { conversation_id?: unknown } | null)?.conversation_id;
        if (typeof id !== 'string' || id === '') {
          throw new ProtocolError('createConversation: the answer has no conversation_id string');
        }
        return { value: id, encoded: id, ttlMs: this.#options.conversationTtlMs ?? 86_400_000 };
      },
      leaseMs: CREATE_TIMEOUT_MS + 5_000,
      lockWaitMs: CREATE_TIMEOUT_MS + 10_000,
      signal: closeSignal,
    });
  }

  #tokenManager(conversationId: string): ConversationTokenManager {
    this.#tokens ??= new ConversationTokenManager({
      ...this.#options.tokenOptions,
      key: `${this.#sessionId}:token:${conversationId}`,
      store: this.#store,
      mint: ({ signal }) => this.#options.mintToken({ conversationId, signal }),
    });
    return this.#tokens;
  }
}
