import type { z } from 'zod/v4';
import { RequestValidationError } from '../../errors/catalog-error.js';
import { validateRequest } from '../../validation/request.js';
import { isModelInputSchema } from './fields.js';

/**
 * Validates a tool's input in one pass and throws a RequestValidationError naming every bad
 * field. The built-ins' messages are written for a model and used as they are; a custom
 * tool's schema gets the client's generic wording.
 */
export function validateToolInput<T>(schema: z.ZodType<T>, input: unknown, toolName: string): T {
  if (!isModelInputSchema(schema)) return validateRequest(schema, input, toolName);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new RequestValidationError(
    toolName,
    parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    })),
  );
}
