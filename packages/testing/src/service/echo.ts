import { isJson } from '../json.js';
import { answerMessages } from './answers.js';
import type { ServiceExchange } from './proxy.js';

/** Fields a careless service fills with what it was sent: titles, names, error text. */
const ECHO_FIELDS = new Set(['title', 'name', 'description', 'detail', 'msg', 'message']);

/** Nesting followed when echoing; the service's answers are never deeper. */
const MAX_DEPTH = 32;

function keyOf(exchange: ServiceExchange): string {
  const header =
    exchange.requestHeaders['x-api-key'] ?? exchange.requestHeaders.authorization ?? '';
  return String(header).replace(/^Bearer /i, '');
}

/** The key in the forms a careless service writes it: as sent, upper case, lower case. */
function echoOf(key: string, field: string): string {
  if (field === 'title' || field === 'name') return key;
  return field === 'description' ? key.toUpperCase() : key.toLowerCase();
}

function echoIn(value: unknown, key: string, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => echoIn(item, key, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([field, item]) => [
      field,
      typeof item === 'string' && ECHO_FIELDS.has(field)
        ? `${item} (for ${echoOf(key, field)})`
        : echoIn(item, key, depth + 1),
    ]),
  );
}

/**
 * An answer with the key the client sent echoed into its titles, names and error texts: a
 * JSON body stays JSON, an event stream keeps its events. Answers without a key are left as
 * they are.
 */
export function echoKeyInAnswer(body: string, exchange: ServiceExchange): string {
  const key = keyOf(exchange);
  if (key === '') return body;
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const [message] = answerMessages(body);
    return message === undefined ? body : JSON.stringify(echoIn(message, key, 0));
  }
  return body
    .split('\n')
    .map((line) => {
      if (!line.startsWith('data:')) return line;
      const [message] = answerMessages(line);
      return isJson(message) ? `data: ${JSON.stringify(echoIn(message, key, 0))}` : line;
    })
    .join('\n');
}
