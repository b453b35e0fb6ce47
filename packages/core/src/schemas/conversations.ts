import { z } from 'zod/v4';

/**
 * Body of `POST /v1/conversations`. The contract does not show its shape, so any JSON
 * object is accepted and sent as given.
 */
export const ConversationCreateSchema = z.looseObject({});
export type ConversationCreate = z.infer<typeof ConversationCreateSchema>;

/** Response of `POST /v1/conversations`: an open object (the shape is not shown). */
export const ConversationSchema = z.looseObject({});
export type Conversation = z.infer<typeof ConversationSchema>;
