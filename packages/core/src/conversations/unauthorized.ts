/**
 * True for an error that carries HTTP status 401: catalogkit's AuthenticationError and
 * errors of other HTTP libraries that expose `status` (duck-typed, so two bundled copies
 * of catalogkit still agree).
 */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && (error as { status?: unknown }).status === 401;
}

/** True for a fetch `Response` with status 401. */
export function isUnauthorizedResponse(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response && value.status === 401;
}

/** Frees the connection behind a response whose body will never be read. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
