import * as z from 'zod/v4/mini';
import { hasText, MESSAGE_WITHOUT_TEXT } from '../validation/text.js';
import { type Closed, openObject, schema } from './define.js';

/** Body of `POST /v1/conversations`: any JSON object (the contract does not show its shape). */
export const ConversationCreateSchema = /* @__PURE__ */ schema(() => openObject());
/** The body of `POST /v1/conversations`: any JSON object. */
export type ConversationCreate = z.infer<typeof ConversationCreateSchema>;

/** Response of `POST /v1/conversations`: an open object (the shape is not shown). */
export const ConversationSchema = /* @__PURE__ */ schema(() => z.looseObject({}));
/** A conversation as `POST /v1/conversations` answers it (an open object). */
export type Conversation = Closed<z.infer<typeof ConversationSchema>>;

// Minting and turns are not in the contract: they follow a comparable service
// (docs/service-contract.md, "Conversations and tokens"), as the emulator does.

/** Body of `POST /v1/conversations/{conversation_id}/tokens`. */
export const TokenMintRequestSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    /** Token lifetime in seconds, 60 to 7200 (the service default is 1800). */
    ttl_seconds: z.optional(z.int().check(z.minimum(60), z.maximum(7200))),
  }),
);

/** Answer of the mint endpoint: `{ token, token_id, expires_at }`. */
export const ConversationTokenSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    // At most 16 KiB, as every secret the redactor holds.
    token: z.string().check(z.minLength(1), z.maxLength(16_384)),
    token_id: z.optional(z.string()),
    expires_at: z.string().check(z.minLength(1)),
  }),
);

/** Body of `POST /v1/conversations/{conversation_id}/turns`: the shopper's message. */
export const TurnRequestSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    message: z.string().check(z.refine(hasText, { error: MESSAGE_WITHOUT_TEXT })),
  }),
);

/** Answer of the turns endpoint: `{ turn_id, reply: { role, content } }`. */
export const TurnSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    turn_id: z.string(),
    reply: z.looseObject({ role: z.string(), content: z.string() }),
  }),
);
/** The answer of a turn: its id and the assistant's reply. */
export type Turn = Closed<z.infer<typeof TurnSchema>>;

/** A conversation path parameter: not empty once trimmed (`requireId` is this rule without zod). */
export const ConversationIdSchema = /* @__PURE__ */ schema(() =>
  z.string().check(z.trim(), z.minLength(1)),
);
