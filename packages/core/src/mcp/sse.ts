import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProtocolError } from '../errors/transport-errors.js';
import { BoundedBodyReader } from '../http/body-reader.js';
import type { CallScope } from '../http/call-scope.js';
import { matchResponse, type RpcId } from './json-rpc.js';

type Found = { message: Record<string, unknown> } | { error: unknown } | undefined;

function inspectEvent(event: EventSourceMessage, id: RpcId): Found {
  // Priming events (an id for resumption, empty data) carry no message.
  if (event.data.trim() === '') return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
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

const LF = 0x0a;
const CR = 0x0d;

/** Length of the line still open at the end of `chunk`, given the one open before it. */
function openLineLength(chunk: Uint8Array, before: number): number {
  for (let index = chunk.length - 1; index >= 0; index--) {
    const byte = chunk[index];
    if (byte === LF || byte === CR) return chunk.length - 1 - index;
  }
  return before + chunk.length;
}

async function readUntilFound(reader: BoundedBodyReader, id: RpcId): Promise<Found> {
  let found: Found;
  const parser = createParser({
    onEvent: (event) => {
      found ??= inspectEvent(event, id);
    },
  });
  const decoder = new TextDecoder();
  const { maxSseLineBytes } = reader.scope.limits;
  let lineBytes = 0;
  while (found === undefined) {
    const chunk = await reader.read();
    if (chunk === undefined) {
      // The SSE spec drops a last event without its closing blank line; some servers
      // end the stream right after the data line, so close the event instead. A
      // truncated event still fails, as invalid JSON.
      parser.feed(`${decoder.decode()}\n\n`);
      break;
    }
    // The parser buffers an open line whole: cap it before it grows without end.
    lineBytes = openLineLength(chunk, lineBytes);
    if (lineBytes > maxSseLineBytes) throw reader.tooLarge('maxSseLineBytes', maxSseLineBytes);
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return found;
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
