import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UIMessage, UIMessageChunk } from 'ai';

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
  status: 403 | 409 | 503;
  reason: string;
}

type ToolPart = Extract<UIMessage['parts'][number], { toolCallId: string }>;

function isToolPart(part: UIMessage['parts'][number]): part is ToolPart {
  return 'toolCallId' in part && typeof part.toolCallId === 'string';
}

/** An approval the AI SDK would run now: answered "yes" and not yet carried out. */
function isPending(part: ToolPart): boolean {
  return part.state === 'approval-responded' && part.approval.approved === true;
}

/** The checked history: approval ids unsealed for the AI SDK, and the seals to put back. */
export interface CheckedApprovals {
  messages: UIMessage[];
  /** Original approval id to its sealed id, for the answer's stream. */
  sealed: Map<string, string>;
}

/**
 * Checks every approval in a history the client sent before anything runs. An approval the
 * AI SDK would carry out now must be sealed by this server for this session and chat, not
 * expired, and never used before (its nonce is then marked used, so a replayed history is
 * refused). Sealed ids are given back to the AI SDK as it issued them.
 */
export async function checkApprovals(
  messages: UIMessage[],
  context: { seal: ApprovalSeal; store: UsedApprovalStore; session: string; chatId: string },
): Promise<CheckedApprovals | ApprovalRefusal> {
  const sealed = new Map<string, string>();
  const pending: OpenedApproval[] = [];
  let foreign = false;
  const unsealed = messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) => {
      if (!isToolPart(part) || !('approval' in part) || part.approval === undefined) return part;
      const binding = {
        toolCallId: part.toolCallId,
        session: context.session,
        chatId: context.chatId,
      };
      const opened = context.seal.open(part.approval.id, binding);
      if (isPending(part)) {
        if (opened) pending.push(opened);
        else foreign = true;
      }
      if (!opened) return part;
      sealed.set(opened.originalId, part.approval.id);
      return { ...part, approval: { ...part.approval, id: opened.originalId } } as typeof part;
    }),
  }));
  if (foreign) {
    return { status: 403, reason: 'This approval was not issued to this session and chat.' };
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
  return { messages: unsealed as UIMessage[], sealed };
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
