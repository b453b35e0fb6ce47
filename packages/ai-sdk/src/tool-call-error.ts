/**
 * Thrown from a catalog tool's `execute` when the call failed in a way the model can act
 * on. The AI SDK sends `message` (short, actionable, free of the API key) to the model as
 * an `error-text` tool result; the application finds the client's typed error (for example
 * a `RateLimitError`) in `cause`.
 */
export class CatalogToolCallError extends Error {
  /** Name of the tool that failed, as the model knows it. */
  readonly toolName: string;

  constructor(toolName: string, message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'CatalogToolCallError';
    this.toolName = toolName;
  }

  /**
   * AI SDK 7 sends `error.toString()` to the model (5 and 6 send `message`): the text alone,
   * without the class name, on every version.
   */
  override toString(): string {
    return this.message;
  }
}
