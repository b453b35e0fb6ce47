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
  type RequestIssue,
  RequestValidationError,
  ServerError,
  StoreUnavailableError,
  TimeoutError,
  ValidationError,
} from '../errors/index.js';
import { describePaymentPrice } from '../payment/amount.js';
import { decodePaymentChallenges } from '../payment/challenge.js';

const NOT_RETRYABLE = 'Retrying will not help; tell the user.';

function waitText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 2) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

function rateLimitText({ resetsAt, retryAfterMs }: RateLimitError): string {
  // To the minute: a `Retry-After` in whole seconds makes finer digits noise (and tokens).
  const at = resetsAt && new Date(Math.round(resetsAt.getTime() / 60_000) * 60_000);
  const wait = retryAfterMs === undefined ? '' : ` (in ${waitText(retryAfterMs)})`;
  const when = at
    ? `It resets at ${at.toISOString().slice(0, 16)}Z${wait}.`
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

const issueList = (issues: RequestIssue[], nameField: (path: string) => string) =>
  issues.map((issue) => `${nameField(issue.path) || '(input)'}: ${issue.message}`).join('; ');

/** The service's `detail` string, without a final period (the sentence goes on after it). */
const detailText = ({ detail, status }: ApiError) =>
  typeof detail === 'string' ? detail.trim().replace(/\.$/, '') : `HTTP ${status}`;

function apiErrorText(error: ApiError, nameField: (path: string) => string): string {
  if (error instanceof RateLimitError) return rateLimitText(error);
  if (error instanceof PaymentRequiredError) return paymentText(error);
  if (error instanceof ValidationError) {
    if (error.issues.length === 0) {
      return `The catalog service refused the input: ${detailText(error)}.`;
    }
    // A 422 `loc` starts with where the field was (FastAPI style: query, body, path).
    const issues = error.issues.map(({ loc, msg }) => ({
      path: loc.slice(['query', 'body', 'path'].includes(String(loc[0])) ? 1 : 0).join('.'),
      message: msg,
    }));
    return `The catalog service refused the input: ${issueList(issues, nameField)}. Fix these fields and try again.`;
  }
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

function unknownOutcomeText(error: unknown): string {
  const reason =
    error instanceof TimeoutError
      ? 'The catalog service did not answer in time.'
      : error instanceof ConnectionError
        ? 'The connection to the catalog service was lost after the request was sent.'
        : error instanceof ApiError
          ? `The catalog service failed (HTTP ${error.status}).`
          : 'The answer of the catalog service was cut off or unreadable.';
  // Never "try again": the change may be in place, and a repeat could apply it twice.
  return `${reason} The change may have been applied, so its outcome is unknown. Do not call this tool again with the same change: it could be applied twice. Tell the user the change may or may not be in place and ask them to check before asking for it again.`;
}

const SELECTOR_WORDS: Record<string, string> = {
  brand_ids: 'brands',
  website_ids: 'websites',
  category_ids: 'categories',
  product_ids: 'products',
};

/** Selectors (`product_ids:p1`) in words, at most 10 ids so a large change cannot flood the model. */
function selectorsInWords(selectors: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const selector of selectors.slice(0, 10)) {
    const [key = '', id = ''] = selector.split(/:(.*)/s);
    const kind = SELECTOR_WORDS[key] ?? 'items';
    groups.set(kind, [...(groups.get(kind) ?? []), id]);
  }
  const listed = [...groups].map(([kind, ids]) => `${kind} ${ids.join(', ')}`).join('; ');
  return selectors.length > 10 ? `${listed} and ${selectors.length - 10} more` : listed;
}

function repeatedUpdateText({ collectionId, pendingAdds, repeatedAdds }: RepeatedUpdateError) {
  const what = `adding or replacing clauses${pendingAdds.length ? ` with ${selectorsInWords(pendingAdds)}` : ''}`;
  const again =
    repeatedAdds.length === pendingAdds.length ? 'them' : selectorsInWords(repeatedAdds);
  const why = repeatedAdds.length
    ? `this change selects ${again} again, which could then be in the collection twice`
    : 'only one change adding or replacing clauses of a collection is sent at a time';
  return `Not sent: an earlier change to collection ${collectionId}, ${what}, is still being sent or ended with an unknown outcome (it may be in place), and ${why}. Do not call this tool again with these clauses, in any form. Tell the user the earlier change may already be in place and ask them to check the collection. Adding or replacing clauses of collection ${collectionId} is refused for up to 10 minutes; renames, descriptions and removals of clauses still work.`;
}

/** A fixed text per JSON-RPC error: the service's message may echo the key (or its end). */
function mcpErrorText({ rpcCode }: McpError): string {
  const code = `(MCP error ${Number.isSafeInteger(rpcCode) ? rpcCode : 'unknown'})`;
  if (rpcCode === -32602 || rpcCode === -32600) {
    return `The catalog service refused the search request ${code}. Check the arguments against the tool's schema before calling it again; do not repeat it unchanged.`;
  }
  if (rpcCode === -32601)
    return `The catalog service does not offer this search ${code}. ${NOT_RETRYABLE}`;
  return `The catalog service reported an error ${code}. You may try once more later.`;
}

/**
 * The short, actionable text a model reads when a tool call fails; `undefined` for errors that
 * are not the model's business (bad configuration, cancellation, unknown), which are rethrown.
 */
export function errorTextForModel(
  error: unknown,
  nameField = (wirePath: string) => wirePath,
): string | undefined {
  if (error instanceof ConfigurationError || error instanceof AbortError) return undefined;
  if (error instanceof TimeoutError && error.duringPayment) {
    // The payment step outlived the call: nothing was paid or sent; a retry would ask again.
    return 'The payment this call needs was not approved in time, so the call was not made and nothing was paid. Do not call this tool again; tell the user the payment was not approved.';
  }
  if (error instanceof RepeatedUpdateError) return repeatedUpdateText(error);
  if (CatalogError.is(error) && error.outcomeUnknown) return unknownOutcomeText(error);
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
