import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConnectionError, ProtocolError } from '../errors/transport-errors.js';
import type { CallScope } from '../http/call-scope.js';
import { matchResponse, type RpcId } from './json-rpc.js';

type Found = { message: Record<string, unknown> } | { error: unknown } | undefined;

function inspectEvent(event: EventSourceMessage, id: RpcId): Found {
  // Priming events (an id for resumption, empty data) carry no message.
  if (event.data.trim() === '') return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch (error) {
    return { error: new ProtocolError('MCP event stream carried invalid JSON', { cause: error }) };
  }
  try {
    const message = matchResponse(payload, id);
    return message ? { message } : undefined;
  } catch (error) {
    return { error };
  }
}

async function readUntilFound(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  id: RpcId,
): Promise<Found> {
  let found: Found;
  const parser = createParser({
    onEvent: (event) => {
      found ??= inspectEvent(event, id);
    },
  });
  const decoder = new TextDecoder();
  while (found === undefined) {
    const { done, value } = await reader.read();
    if (done) {
      // The SSE spec drops a last event without its closing blank line; some servers
      // end the stream right after the data line, so close the event instead. A
      // truncated event still fails, as invalid JSON.
      parser.feed(`${decoder.decode()}\n\n`);
      break;
    }
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return found;
}

/**
 * Reads a `text/event-stream` answer until the event holding the JSON-RPC response to
 * `id`; notifications before it are skipped. Stops reading (and closes the stream) as
 * soon as the answer is found.
 */
export async function readSseResponse(
  response: Response,
  id: RpcId,
  scope: CallScope,
): Promise<Record<string, unknown>> {
  if (!response.body)
    throw new ProtocolError('MCP event stream has no body', { status: response.status });
  const reader = response.body.getReader();
  let found: Found;
  try {
    found = await readUntilFound(reader, id);
  } catch (error) {
    throw (
      scope.failure ??
      new ConnectionError(`${scope.operation}: the event stream broke`, {
        cause: error,
        requestSent: true,
      })
    );
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (found === undefined) {
    throw new ProtocolError(
      `MCP event stream ended without the answer to request ${JSON.stringify(id)}`,
      {
        status: response.status,
      },
    );
  }
  if ('error' in found) throw found.error;
  return found.message;
}
