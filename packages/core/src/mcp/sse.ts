import { ProtocolError } from '../errors/transport-errors.js';
import { BoundedBodyReader } from '../http/body-reader.js';
import type { CallScope } from '../http/call-scope.js';
import { matchResponse, type RpcId } from './json-rpc.js';
import { SseEventReader } from './sse-events.js';

type Found = { message: Record<string, unknown> } | { error: unknown } | undefined;

function inspectEvent(data: string, id: RpcId): Found {
  // Priming events (an id for resumption, empty data) carry no message.
  if (data.trim() === '') return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    // No cause: JSON.parse's message quotes the event's text, past the redactor.
    return { error: new ProtocolError('MCP event stream carried invalid JSON') };
  }
  try {
    const message = matchResponse(payload, id);
    return message ? { message } : undefined;
  } catch (error) {
    return { error };
  }
}

async function readUntilFound(reader: BoundedBodyReader, id: RpcId): Promise<Found> {
  let found: Found;
  const onData = (data: string) => {
    found = inspectEvent(data, id);
    return found !== undefined;
  };
  const events = new SseEventReader();
  const decoder = new TextDecoder();
  const { maxSseLineBytes } = reader.scope.limits;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === undefined) {
      // Some servers end the stream right after the data line, without the blank line
      // that closes the event; the reader delivers it anyway. A truncated event still
      // fails, as invalid JSON.
      events.feed(decoder.decode(), onData) || events.end(onData);
      return found;
    }
    if (events.feed(decoder.decode(chunk, { stream: true }), onData)) return found;
    // The reader keeps an open line whole: cap it before it grows without end. Counted in
    // decoded characters (bytes for ASCII); scanning the bytes themselves cost more than
    // the JSON parse of a large answer.
    if (events.openLineLength > maxSseLineBytes) {
      throw reader.tooLarge('maxSseLineBytes', maxSseLineBytes);
    }
  }
}

/**
 * Reads a `text/event-stream` answer until the event holding the JSON-RPC response to
 * `id`; notifications before it are skipped. Stops reading (and closes the stream) as
 * soon as the answer is found. The stream is bounded by the scope's body limits.
 */
export async function readSseResponse(
  response: Response,
  id: RpcId,
  scope: CallScope,
): Promise<Record<string, unknown>> {
  if (!response.body)
    throw new ProtocolError('MCP event stream has no body', { status: response.status });
  const reader = new BoundedBodyReader(response, scope);
  let found: Found;
  try {
    found = await readUntilFound(reader, id);
  } finally {
    reader.cancel();
  }
  if (found === undefined) {
    throw new ProtocolError(
      `MCP event stream ended without the answer to request ${JSON.stringify(id)}`,
      { status: response.status },
    );
  }
  if ('error' in found) throw found.error;
  return found.message;
}
