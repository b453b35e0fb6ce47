import { z } from 'zod/v4';

/**
 * Request bodies of the conversation token and turn endpoints. The contract does not show
 * them (ARCHITECTURE.md documents the assumption), so core has no schema for them yet;
 * unknown fields are ignored as the real service's framework does.
 */
export const TOKEN_TTL = { min: 60, max: 7200, default: 1800 } as const;

export const TokenRequestSchema = z.looseObject({
  ttl_seconds: z.number().int().min(TOKEN_TTL.min).max(TOKEN_TTL.max).optional(),
});

export const TurnRequestSchema = z.looseObject({
  message: z.string().trim().min(1),
});
