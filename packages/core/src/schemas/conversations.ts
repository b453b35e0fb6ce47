import { z } from 'zod/v4';
import type { Closed } from './closed.js';

/**
 * Body of `POST /v1/conversations`. The contract does not show its shape, so any JSON
 * object is accepted and sent as given.
 */
export const ConversationCreateSchema = z.looseObject({});
export type ConversationCreate = z.infer<typeof ConversationCreateSchema>;

/** Response of `POST /v1/conversations`: an open object (the shape is not shown). */
export const ConversationSchema = z.looseObject({});
export type Conversation = Closed<z.infer<typeof ConversationSchema>>;

/*
 * Wire shapes of the conversation-token endpoints. The contract shows only
 * `POST /v1/conversations`; minting and turns follow the field notes' comparable service,
 * as the emulator implements them (docs/ARCHITECTURE.md). Requests are validated
 * strictly, responses parsed leniently (unknown fields kept).
 */

/** Body of `POST /v1/conversations/{conversation_id}/tokens`. */
export const TokenMintRequestSchema = z.strictObject({
  ttl_seconds: z
    .int()
    .min(60)
    .max(7200)
    .optional()
    .describe('Token lifetime in seconds, 60 to 7200 (the service default is 1800).'),
});
export type TokenMintRequest = z.infer<typeof TokenMintRequestSchema>;

/** Answer of the mint endpoint: `{ token, token_id, expires_at }`. */
export const ConversationTokenSchema = z.looseObject({
  token: z.string().min(1),
  token_id: z.string().optional(),
  expires_at: z.string().min(1),
});
export type ConversationToken = Closed<z.infer<typeof ConversationTokenSchema>>;

/** Body of `POST /v1/conversations/{conversation_id}/turns`: the shopper's message. */
export const TurnRequestSchema = z.strictObject({
  message: z.string().refine((text) => text.trim() !== '', {
    message: 'must contain text (it is empty or only whitespace)',
  }),
});
export type TurnRequest = z.infer<typeof TurnRequestSchema>;

/** Answer of the turns endpoint: `{ turn_id, reply: { role, content } }`. */
export const TurnSchema = z.looseObject({
  turn_id: z.string(),
  reply: z.looseObject({ role: z.string(), content: z.string() }),
});
export type Turn = Closed<z.infer<typeof TurnSchema>>;

/** Path parameter check shared by the conversation calls. */
export const ConversationIdSchema = z.string().trim().min(1);
