/** Structured context of a log line. Never contains the API key. */
export type LogContext = Record<string, unknown>;

/**
 * A logger the client reports to (retries, fallbacks). Any subset of the levels may be
 * given; `console` fits, as do pino and winston child loggers wrapped in an object.
 */
export interface CatalogLogger {
  debug?(message: string, context?: LogContext): void;
  info?(message: string, context?: LogContext): void;
  warn?(message: string, context?: LogContext): void;
  error?(message: string, context?: LogContext): void;
}
