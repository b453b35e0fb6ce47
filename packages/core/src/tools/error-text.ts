import type { RequestIssue } from '../errors/index.js';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  CatalogError,
  CatalogToolError,
  ConfigurationError,
  ConnectionError,
  McpError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  RepeatedUpdateError,
  RequestValidationError,
  ServerError,
  StoreUnavailableError,
  TimeoutError,
  ValidationError,
} from '../errors/index.js';
import { describePaymentPrice } from '../payment/amount.js';
import { decodePaymentChallenges } from '../payment/challenge.js';
import { endedInPaymentStep } from '../payment/paid-request.js';
import type { ValidationIssue } from '../schemas/index.js';

/** How a tool names its fields, when the wire path differs from the model's argument. */
export type FieldNamer = (wirePath: string) => string;

const NOT_RETRYABLE = 'Retrying will not help; tell the user.';

function waitText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 2) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/**
 * The reset moment to the minute: it is computed from a `Retry-After` in whole seconds, so
 * finer digits would be noise (and cost tokens).
 */
function minuteText(date: Date): string {
  const rounded = new Date(Math.round(date.getTime() / 60_000) * 60_000);
  return `${rounded.toISOString().slice(0, 16)}Z`;
}

function rateLimitText(error: RateLimitError): string {
  const when = error.resetsAt
    ? `It resets at ${minuteText(error.resetsAt)}${error.retryAfterMs === undefined ? '' : ` (in ${waitText(error.retryAfterMs)})`}.`
    : 'Limits reset at the start of the next UTC day.';
  return `Rate limit of the catalog service reached (limits are daily, per UTC day). ${when} Do not call this tool again before then; tell the user.`;
}

function paymentText(error: PaymentRequiredError): string {
  if (error.reason === 'credits_exhausted') {
    return `The catalog API key has used up its free credits; the account owner must add a payment method. ${NOT_RETRYABLE}`;
  }
  // The price only: challenge ids, realms and credentials are not the model's business.
  const price = describePaymentPrice(decodePaymentChallenges(error.challenges));
  return `The catalog service asks for a payment${price ? ` of ${price}` : ''} before answering; the application must approve the payment, this tool cannot pay on its own. ${NOT_RETRYABLE}`;
}

/** The payment step outlived the call: nothing was paid or sent, and a retry would ask again. */
const PAYMENT_NOT_ANSWERED =
  'The payment this call needs was not approved in time, so the call was not made and nothing was paid. Do not call this tool again; tell the user the payment was not approved.';

function issueList(issues: RequestIssue[], nameField: FieldNamer): string {
  return issues
    .map((issue) => `${nameField(issue.path) || '(input)'}: ${issue.message}`)
    .join('; ');
}

/** Turns a 422 `loc` (e.g. `["query", "category_ids", 0]`) into the field's name. */
function locPath(loc: ValidationIssue['loc']): string {
  const [first, ...rest] = loc;
  // FastAPI-style locs start with where the field was: query, body, path.
  const parts = first === 'query' || first === 'body' || first === 'path' ? rest : loc;
  return parts.map(String).join('.');
}

function serviceValidationText(error: ValidationError, nameField: FieldNamer): string {
  if (error.issues.length === 0)
    return `The catalog service refused the input: ${detailText(error)}.`;
  const issues = error.issues.map((issue) => ({ path: locPath(issue.loc), message: issue.msg }));
  return `The catalog service refused the input: ${issueList(issues, nameField)}. Fix these fields and try again.`;
}

/** The service's `detail` string, without a final period (the sentence goes on after it). */
function detailText(error: ApiError): string {
  if (typeof error.detail === 'string') return error.detail.trim().replace(/\.$/, '');
  return `HTTP ${error.status}`;
}

function apiErrorText(error: ApiError, nameField: FieldNamer): string {
  if (error instanceof RateLimitError) return rateLimitText(error);
  if (error instanceof PaymentRequiredError) return paymentText(error);
  if (error instanceof ValidationError) return serviceValidationText(error, nameField);
  if (error instanceof AuthenticationError) {
    return `The catalog API key is ${error.reason}; the application owner must configure a valid key. ${NOT_RETRYABLE}`;
  }
  if (error instanceof NotFoundError) {
    return `Not found: ${detailText(error)}. Check the ids you gave; use ids from earlier tool results only.`;
  }
  if (error instanceof ServerError) {
    return `The catalog service failed (HTTP ${error.status}). You may try once more later.`;
  }
  return `The catalog service answered HTTP ${error.status}: ${detailText(error)}.`;
}

/**
 * Whether a failed call may still have changed data: the error's `outcomeUnknown` (set by
 * the client on calls that change data after a timeout or a lost connection once sent, a
 * 5xx, a truncated answer).
 */
export function mayHaveApplied(error: unknown): boolean {
  return CatalogError.is(error) && error.outcomeUnknown;
}

function unknownOutcomeReason(error: unknown): string {
  if (error instanceof TimeoutError) return 'The catalog service did not answer in time.';
  if (error instanceof ConnectionError) {
    return 'The connection to the catalog service was lost after the request was sent.';
  }
  if (error instanceof ApiError) return `The catalog service failed (HTTP ${error.status}).`;
  return 'The answer of the catalog service was cut off or unreadable.';
}

/** Never "try again": the change may be in place, and a repeat could apply it twice. */
const UNKNOWN_OUTCOME_ADVICE =
  'The change may have been applied, so its outcome is unknown. Do not call this tool again with the same change: it could be applied twice. Tell the user the change may or may not be in place and ask them to check before asking for it again.';

/** How many ids a text lists before "and N more": a large change must not flood the model. */
const IDS_LISTED = 10;

const SELECTOR_WORDS: Record<string, string> = {
  brand_ids: 'brands',
  website_ids: 'websites',
  category_ids: 'categories',
  product_ids: 'products',
};

/** Selectors (`product_ids:p1`) in words, at most {@link IDS_LISTED} ids: "products p1, p2; brands b1". */
function selectorsInWords(selectors: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const selector of selectors.slice(0, IDS_LISTED)) {
    const cut = selector.indexOf(':');
    const kind = SELECTOR_WORDS[selector.slice(0, cut)] ?? 'items';
    groups.set(kind, [...(groups.get(kind) ?? []), selector.slice(cut + 1)]);
  }
  const listed = [...groups].map(([kind, ids]) => `${kind} ${ids.join(', ')}`).join('; ');
  const more = selectors.length - IDS_LISTED;
  return more > 0 ? `${listed} and ${more} more` : listed;
}

function repeatedUpdateText(error: RepeatedUpdateError): string {
  const { collectionId, pendingAdds, repeatedAdds } = error;
  const what = pendingAdds.length
    ? `adding or replacing clauses with ${selectorsInWords(pendingAdds)}`
    : 'adding or replacing clauses';
  const again =
    repeatedAdds.length === pendingAdds.length ? 'them' : selectorsInWords(repeatedAdds);
  const why = repeatedAdds.length
    ? `this change selects ${again} again, which could then be in the collection twice`
    : 'only one change adding or replacing clauses of a collection is sent at a time';
  return `Not sent: an earlier change to collection ${collectionId}, ${what}, is still being sent or ended with an unknown outcome (it may be in place), and ${why}. Do not call this tool again with these clauses, in any form. Tell the user the earlier change may already be in place and ask them to check the collection. Adding or replacing clauses of collection ${collectionId} is refused for up to 10 minutes; renames, descriptions and removals of clauses still work.`;
}

/**
 * A fixed text per JSON-RPC error of the service's MCP endpoint, as for its REST answers:
 * the service's own message is never forwarded, since a careless one echoes the key (whole,
 * or the last characters "to help").
 */
function mcpErrorText(error: McpError): string {
  const code = Number.isSafeInteger(error.rpcCode) ? error.rpcCode : 'unknown';
  if (error.rpcCode === -32602 || error.rpcCode === -32600) {
    return `The catalog service refused the search request (MCP error ${code}). Check the arguments against the tool's schema before calling it again; do not repeat it unchanged.`;
  }
  if (error.rpcCode === -32601) {
    return `The catalog service does not offer this search (MCP error ${code}). ${NOT_RETRYABLE}`;
  }
  return `The catalog service reported an error (MCP error ${code}). You may try once more later.`;
}

/**
 * The short, actionable text a model reads when a tool call fails: which field and why,
 * when a rate limit resets, that credits are used up, that an id is unknown.
 *
 * Returns `undefined` for errors that are not the model's business: programming errors
 * (bad options, a missing key in the configuration), cancellations and unknown errors,
 * which the caller rethrows.
 */
export function errorTextForModel(
  error: unknown,
  nameField: FieldNamer = (path) => path,
): string | undefined {
  if (error instanceof ConfigurationError || error instanceof AbortError) return undefined;
  if (error instanceof TimeoutError && endedInPaymentStep(error)) return PAYMENT_NOT_ANSWERED;
  if (error instanceof RepeatedUpdateError) return repeatedUpdateText(error);
  if (mayHaveApplied(error)) return `${unknownOutcomeReason(error)} ${UNKNOWN_OUTCOME_ADVICE}`;
  if (error instanceof StoreUnavailableError) {
    // Its message names the store and what failed: the application's business, not the model's.
    return 'The application could not reach its shared store, so nothing was sent and nothing changed. You may try once more later; if it fails again, tell the user the change could not be made right now.';
  }
  if (error instanceof RequestValidationError) {
    return `Invalid arguments: ${issueList(error.issues, nameField)}. Fix these fields and call the tool again.`;
  }
  if (error instanceof ApiError) return apiErrorText(error, nameField);
  if (error instanceof TimeoutError || error instanceof ConnectionError) {
    return 'The catalog service could not be reached in time. You may try once more.';
  }
  if (error instanceof CatalogToolError) {
    return `The catalog search failed: ${error.messages.join('; ') || 'no reason given'}.`;
  }
  if (error instanceof McpError) return mcpErrorText(error);
  if (error instanceof ProtocolError) {
    return 'The catalog service sent an answer that could not be read. You may try once more later.';
  }
  return undefined;
}
