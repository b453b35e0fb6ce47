import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CatalogStore } from '@catalogkit/core';
import type { ModelMessage, UIMessageChunk } from 'ai';

/**
 * What a store answers when an approval is used: first use, a repeat, no room to remember
 * it, or `unknown`: the store does not remember issuing it (its life ran out by the store's
 * clock, or the store lost its data since), so it is refused as expired.
 */
export type MarkUsedResult = 'fresh' | 'used' | 'full' | 'unknown';

/**
 * The memory of approvals already used, by nonce. An entry only has to outlive its
 * approval's expiry (a stale approval is refused anyway), so a store may drop it after
 * `expiresAt`. Kept behind this interface so several server processes can share one store.
 */
export interface UsedApprovalStore {
  /**
   * Told when an approval is sealed, before the page sees it: a store shared by several
   * instances records it for `ttlMs`, so that the approval's life is judged by the store's
   * one clock (not by each instance's) and an approval the store no longer knows (expired,
   * or issued before the store lost its data) is refused. Optional: a store in one process
   * judges by that process's clock alone.
   */
  issue?(nonce: string, ttlMs: number): Promise<void>;
  /** Marks `nonce` used until `expiresAt` (ms since the epoch); says whether it already was. */
  markUsed(nonce: string, expiresAt: number): MarkUsedResult | Promise<MarkUsedResult>;
}

/**
 * The in-process {@link UsedApprovalStore}: at most `maxEntries` nonces, expired ones swept
 * when it is full (at most once a second, so a full store costs no more than that). When
 * every entry is still live it answers `full` rather than forget one: forgetting would let
 * that approval run twice.
 */
export class MemoryUsedApprovals implements UsedApprovalStore {
  readonly #used = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many nonces it holds (for tests and metrics). */
  get size(): number {
    return this.#used.size;
  }

  markUsed(nonce: string, expiresAt: number): MarkUsedResult {
    if (this.#used.has(nonce)) return 'used';
    if (this.#used.size >= this.#maxEntries) this.#sweep();
    if (this.#used.size >= this.#maxEntries) return 'full';
    this.#used.set(nonce, expiresAt);
    return 'fresh';
  }

  #sweep(): void {
    const now = this.#now();
    if (now - this.#sweptAt < 1000) return;
    this.#sweptAt = now;
    for (const [nonce, expiresAt] of this.#used) {
      if (expiresAt <= now) this.#used.delete(nonce);
    }
  }
}

/**
 * How long a claim outlives the record of its approval's issue. Both lives are timed by the
 * store's own clock, so this covers only the moments between reading the record and
 * writing the claim, never a difference between instances' clocks.
 */
const CLAIM_MARGIN_MS = 60_000;

const issuedKey = (nonce: string): string => `webchat:approval-issued:${nonce}`;
const claimKey = (nonce: string): string => `webchat:approval:${nonce}`;

/**
 * A {@link UsedApprovalStore} in a shared `CatalogStore` (e.g. `createRedisStore` of
 * `@catalogkit/redis`), so every instance behind a load balancer refuses an approval that
 * any of them has already run. Two keys per approval:
 *
 * - `webchat:approval-issued:<nonce>`, written when the approval is sealed, living exactly
 *   the approval's life by the store's clock. An approval whose record is gone is refused:
 *   its life is over whatever an instance's clock says (instances may disagree by any
 *   amount), or the store lost its data (a restart without persistence, `FLUSHALL`), which
 *   may have taken the approval's claim with it.
 * - `webchat:approval:<nonce>`, the claim, taken with the store's atomic `setIfAbsent` (of
 *   two instances racing on one nonce exactly one gets `fresh`) and kept a minute longer
 *   than the record, so a record is never seen without its claim.
 *
 * The record is read again after the claim: a store that lost its data between the two
 * lost the record too, and the approval is refused. Each key is about 70 bytes, living at
 * most the approval's life plus a minute (16 minutes by default). A store that fails
 * throws: the approval is then refused, never run unchecked. The guarantee needs a store
 * that forgets nothing on its own before its time: for Redis, `maxmemory-policy noeviction`
 * and an append-only file synced on every write (`appendfsync always`).
 */
export class StoreUsedApprovals implements UsedApprovalStore {
  readonly #store: CatalogStore;

  constructor(store: CatalogStore) {
    this.#store = store;
  }

  async issue(nonce: string, ttlMs: number): Promise<void> {
    await this.#store.set(issuedKey(nonce), '1', ttlMs);
  }

  async markUsed(nonce: string): Promise<MarkUsedResult> {
    const issued = await this.#store.get(issuedKey(nonce));
    if (!issued) return 'unknown';
    const ttlMs = issued.ttlMs === undefined ? undefined : issued.ttlMs + CLAIM_MARGIN_MS;
    const claimed = await this.#store.setIfAbsent(claimKey(nonce), '1', ttlMs);
    if (!claimed) return 'used';
    return (await this.#store.get(issuedKey(nonce))) ? 'fresh' : 'unknown';
  }
}

/** Whose approval it is: the tool call, the shopper's session and the chat. */
export interface ApprovalBinding {
  toolCallId: string;
  session: string;
  chatId: string;
}

/** An approval id this server sealed, opened. */
export interface OpenedApproval {
  /** The id the AI SDK gave the approval (and signed with the tool call's input). */
  originalId: string;
  nonce: string;
  /** When it stops being accepted, ms since the epoch. */
  expiresAt: number;
}

const VERSION = 'wca1';
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Seals the AI SDK's approval ids with a nonce, an expiry and whose they are:
 * `wca1.<id>.<nonce>.<expiresAt>.<mac>`, the MAC covering all of it plus the tool call, the
 * session and the chat. The AI SDK's own signature binds the id to the tool call's input,
 * so together an approval is one shopper's consent to one input, once, for a while.
 */
export class ApprovalSeal {
  readonly #secret: Buffer;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(secret: string | Buffer, ttlMs: number, now: () => number = Date.now) {
    this.#secret = Buffer.from(secret);
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  #mac(opened: OpenedApproval, binding: ApprovalBinding): string {
    const fields = [VERSION, opened.originalId, opened.nonce, opened.expiresAt, binding.toolCallId];
    const payload = JSON.stringify([...fields, binding.session, binding.chatId]);
    return createHmac('sha256', this.#secret).update(payload).digest('base64url');
  }

  /** A sealed id for a new approval request. */
  seal(originalId: string, binding: ApprovalBinding): string {
    return this.issue(originalId, binding).sealed;
  }

  /** A new approval request sealed: its id, its nonce and how long it lives. */
  issue(
    originalId: string,
    binding: ApprovalBinding,
  ): { sealed: string; nonce: string; ttlMs: number } {
    const opened = {
      originalId,
      nonce: randomBytes(16).toString('base64url'),
      expiresAt: this.#now() + this.#ttlMs,
    };
    const id = Buffer.from(originalId).toString('base64url');
    const mac = this.#mac(opened, binding);
    const sealed = [VERSION, id, opened.nonce, opened.expiresAt.toString(36), mac].join('.');
    return { sealed, nonce: opened.nonce, ttlMs: this.#ttlMs };
  }

  /** The sealed id's content when this server sealed it for `binding`, else undefined. */
  open(sealed: string, binding: ApprovalBinding): OpenedApproval | undefined {
    const [version, id, nonce, expires, mac, ...rest] = sealed.split('.');
    if (version !== VERSION || rest.length > 0 || !id || !mac || !expires) return undefined;
    if (!BASE64URL.test(id) || !NONCE.test(nonce ?? '') || !/^[0-9a-z]{1,12}$/.test(expires)) {
      return undefined;
    }
    const opened = {
      originalId: Buffer.from(id, 'base64url').toString(),
      nonce: nonce as string,
      expiresAt: Number.parseInt(expires, 36),
    };
    const expected = Buffer.from(this.#mac(opened, binding));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? opened
      : undefined;
  }

  /** Whether an opened approval is past its expiry. */
  expired(opened: OpenedApproval): boolean {
    return opened.expiresAt <= this.#now();
  }
}

/** An approval refused, with the status and the reason the client gets. */
export interface ApprovalRefusal {
  status: 400 | 403 | 409 | 503;
  reason: string;
}

type ModelPart = Exclude<ModelMessage['content'], string>[number];
type ApprovalRequestPart = Extract<ModelPart, { type: 'tool-approval-request' }>;
type ApprovalResponsePart = Extract<ModelPart, { type: 'tool-approval-response' }>;

/** The checked model history: approval ids unsealed for the AI SDK, and the seals to put back. */
export interface CheckedApprovals {
  messages: ModelMessage[];
  /** Original approval id to its sealed id, for the answer's stream. */
  sealed: Map<string, string>;
}

interface ApprovalContext {
  seal: ApprovalSeal;
  store: UsedApprovalStore;
  session: string;
  chatId: string;
  /** Told when the store fails (the approval is then refused with 503). */
  onStoreError?: (error: unknown) => void;
}

function partsOf(message: ModelMessage): ModelPart[] {
  return typeof message.content === 'string' ? [] : message.content;
}

/**
 * Gives every approval request this server sealed for this session and chat (and the
 * answers to it) the id the AI SDK issued. Ids that do not open stay as they are: the
 * AI SDK then knows them under that id, and {@link approvalsToRun} refuses them if they
 * would run.
 */
function unseal(messages: ModelMessage[], context: ApprovalContext) {
  const opened = new Map<string, OpenedApproval>();
  const sealed = new Map<string, string>();
  const originals = new Map<string, string>();
  for (const message of messages) {
    for (const part of partsOf(message)) {
      if (part.type !== 'tool-approval-request') continue;
      const binding = {
        toolCallId: part.toolCallId,
        session: context.session,
        chatId: context.chatId,
      };
      const open = context.seal.open(part.approvalId, binding);
      if (!open) continue;
      opened.set(open.originalId, open);
      sealed.set(open.originalId, part.approvalId);
      originals.set(part.approvalId, open.originalId);
    }
  }
  const rewritten = messages.map((message): ModelMessage => {
    if (typeof message.content === 'string') return message;
    const content = message.content.map((part) =>
      (part.type === 'tool-approval-request' || part.type === 'tool-approval-response') &&
      originals.has(part.approvalId)
        ? { ...part, approvalId: originals.get(part.approvalId) as string }
        : part,
    );
    return { ...message, content } as ModelMessage;
  });
  return { messages: rewritten, opened, sealed };
}

/**
 * The approvals `streamText` would carry out for this history, found the way the AI SDK
 * finds them (`collectToolApprovals`, ai 7): the answers in the last message when it is a
 * tool message, each to the last approval request with its id, skipped when that message
 * already holds the call's result. Answers it would deny are left out (they run nothing);
 * everything else (even a call the AI SDK would then skip as provider-executed) is kept,
 * so this is never less than what runs. A history the AI SDK would fail on is refused.
 */
export function approvalsToRun(messages: ModelMessage[]): ApprovalRequestPart[] | ApprovalRefusal {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return [];
  const requests = new Map<string, ApprovalRequestPart>();
  const calls = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of partsOf(message)) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type !== 'tool-approval-request') continue;
      // The AI SDK keeps the last request of an id: two would let it run another call.
      if (requests.has(part.approvalId)) return malformed('two approval requests share an id');
      requests.set(part.approvalId, part);
    }
  }
  const results = new Set<string>();
  const answers: ApprovalResponsePart[] = [];
  for (const part of partsOf(last)) {
    if (part.type === 'tool-result') results.add(part.toolCallId);
    if (part.type === 'tool-approval-response') answers.push(part);
  }
  const toRun: ApprovalRequestPart[] = [];
  for (const answer of answers) {
    const request = requests.get(answer.approvalId);
    if (!request) return malformed('an approval answers no approval request');
    if (!calls.has(request.toolCallId)) return malformed('an approval names no tool call');
    if (answer.approved && !results.has(request.toolCallId)) toRun.push(request);
  }
  return toRun;
}

function malformed(what: string): ApprovalRefusal {
  return { status: 400, reason: `messages: ${what}.` };
}

const EXPIRED: ApprovalRefusal = {
  status: 403,
  reason: 'This approval has expired: ask for the change again.',
};

/**
 * Checks every approval a history would carry out before anything runs. The approvals are
 * taken from the model messages `streamText` will get (see {@link approvalsToRun}), not
 * from the parts' states, so no shape of history runs a call this check did not see. Each
 * must be sealed by this server for this session and chat, not expired, and never used
 * before (its nonce is then marked used, so a replayed history is refused). Sealed ids are
 * given back to the AI SDK as it issued them.
 */
export async function checkApprovals(
  messages: ModelMessage[],
  context: ApprovalContext,
): Promise<CheckedApprovals | ApprovalRefusal> {
  const unsealed = unseal(messages, context);
  const toRun = approvalsToRun(unsealed.messages);
  if (!Array.isArray(toRun)) return toRun;
  const pending: OpenedApproval[] = [];
  for (const request of toRun) {
    const opened = unsealed.opened.get(request.approvalId);
    if (!opened) {
      return { status: 403, reason: 'This approval was not issued to this session and chat.' };
    }
    pending.push(opened);
  }
  if (pending.some((opened) => context.seal.expired(opened))) return EXPIRED;
  for (const opened of pending) {
    const marked = await markUsed(context, opened);
    if (marked === 'used') return { status: 409, reason: 'This approval was already used.' };
    if (marked === 'unknown') return EXPIRED;
    if (marked === 'full')
      return { status: 503, reason: 'Too many approvals in flight; try again later.' };
    if (marked === 'unavailable') {
      return { status: 503, reason: 'Approvals cannot be checked right now; try again.' };
    }
  }
  return { messages: unsealed.messages, sealed: unsealed.sealed };
}

/**
 * Marks an approval used; a store that fails (a shared store out of reach) answers
 * `unavailable`, so the approval is refused rather than run without the single-use check.
 */
async function markUsed(
  context: ApprovalContext,
  opened: OpenedApproval,
): Promise<MarkUsedResult | 'unavailable'> {
  try {
    return await context.store.markUsed(opened.nonce, opened.expiresAt);
  } catch (error) {
    context.onStoreError?.(error);
    return 'unavailable';
  }
}

/** What {@link sealApprovalsInStream} needs. */
export interface StreamSealContext {
  seal: ApprovalSeal;
  session: string;
  chatId: string;
  /** Original approval id to its sealed id (the ones the client sent; new ones are added). */
  sealed: Map<string, string>;
  /** Told of each new approval before the page sees it (see `UsedApprovalStore.issue`). */
  store?: UsedApprovalStore;
  /**
   * Told when the store fails to record one: the page still gets the approval, which the
   * store will then refuse as expired, so nothing runs that it did not record.
   */
  onStoreError?: (error: unknown) => void;
}

/**
 * The answer's stream with every approval id sealed (new requests, each recorded in the
 * store before it is passed on) or given back its seal (responses to ones the client sent),
 * so the page only ever holds sealed ids.
 */
export function sealApprovalsInStream(
  stream: ReadableStream<UIMessageChunk>,
  context: StreamSealContext,
): ReadableStream<UIMessageChunk> {
  const { seal, sealed, session, chatId } = context;
  const sealNew = async (approvalId: string, toolCallId: string): Promise<string> => {
    const issued = seal.issue(approvalId, { toolCallId, session, chatId });
    try {
      await context.store?.issue?.(issued.nonce, issued.ttlMs);
    } catch (error) {
      context.onStoreError?.(error);
    }
    return issued.sealed;
  };
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      async transform(chunk, controller) {
        if (chunk.type === 'tool-approval-request') {
          const id =
            sealed.get(chunk.approvalId) ?? (await sealNew(chunk.approvalId, chunk.toolCallId));
          sealed.set(chunk.approvalId, id);
          controller.enqueue({ ...chunk, approvalId: id });
        } else if (chunk.type === 'tool-approval-response') {
          controller.enqueue({
            ...chunk,
            approvalId: sealed.get(chunk.approvalId) ?? chunk.approvalId,
          });
        } else {
          controller.enqueue(chunk);
        }
      },
    }),
  );
}
