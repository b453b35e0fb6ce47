import type { z } from 'zod/v4';
import { RequestValidationError } from '../../errors/catalog-error.js';

/**
 * Validates a tool's input in one pass and throws a RequestValidationError naming every bad
 * field, in the schema's own words (the built-ins' are written for a model). What a tool
 * then sends passes the client's strict request check as well.
 */
export function validateToolInput<T>(schema: z.ZodType<T>, input: unknown, toolName: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(({ path, message }) => ({
    path: path.join('.'),
    message,
  }));
  throw new RequestValidationError(toolName, issues);
}
