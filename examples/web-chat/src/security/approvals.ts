import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ModelMessage, UIMessageChunk } from 'ai';

/** What a store answers when an approval is used: first use, a repeat, or no room to remember it. */
export type MarkUsedResult = 'fresh' | 'used' | 'full';

/**
 * The memory of approvals already used, by nonce. An entry only has to outlive its
 * approval's expiry (a stale approval is refused anyway), so a store may drop it after
 * `expiresAt`. Kept behind this interface so several server processes can share one store
 * (Redis `SET nonce 1 NX PXAT expiresAt` is the whole implementation).
 */
export interface UsedApprovalStore {
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
    const opened = {
      originalId,
      nonce: randomBytes(16).toString('base64url'),
      expiresAt: this.#now() + this.#ttlMs,
    };
    const id = Buffer.from(originalId).toString('base64url');
    const mac = this.#mac(opened, binding);
    return [VERSION, id, opened.nonce, opened.expiresAt.toString(36), mac].join('.');
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
  if (pending.some((opened) => context.seal.expired(opened))) {
    return { status: 403, reason: 'This approval has expired: ask for the change again.' };
  }
  for (const opened of pending) {
    const marked = await context.store.markUsed(opened.nonce, opened.expiresAt);
    if (marked === 'used') return { status: 409, reason: 'This approval was already used.' };
    if (marked === 'full')
      return { status: 503, reason: 'Too many approvals in flight; try again later.' };
  }
  return { messages: unsealed.messages, sealed: unsealed.sealed };
}

/**
 * The answer's stream with every approval id sealed (new requests) or given back its seal
 * (responses to ones the client sent), so the page only ever holds sealed ids.
 */
export function sealApprovalsInStream(
  stream: ReadableStream<UIMessageChunk>,
  context: { seal: ApprovalSeal; session: string; chatId: string; sealed: Map<string, string> },
): ReadableStream<UIMessageChunk> {
  const { seal, sealed, session, chatId } = context;
  return stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        if (chunk.type === 'tool-approval-request') {
          const id =
            sealed.get(chunk.approvalId) ??
            seal.seal(chunk.approvalId, { toolCallId: chunk.toolCallId, session, chatId });
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
