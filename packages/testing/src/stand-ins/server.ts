import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from '../json.js';
import type { ModelView } from './script.js';

/** One request a provider package sent to a stand-in. */
export interface RecordedRequest {
  method: string;
  /** The path after the stand-in's prefix, query included (e.g. `/chat/completions`). */
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

/** One server-sent event: its `event:` name (when the provider names them) and its data. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** What a stand-in answers: a status and a JSON body, or a server-sent event stream. */
export type StandInReply =
  | { status: number; json: unknown }
  | {
      status: number;
      /** Plain data events, or named ones. */
      events: readonly (SseEvent | unknown)[];
      /** End with `data: [DONE]` (OpenAI Chat Completions). */
      done?: boolean;
      /** The events are `{ event, data }` pairs (Anthropic, OpenAI Responses). */
      named?: boolean;
    };

/** A provider's HTTP API on loopback, answering a script and recording every request. */
export interface RunningStandIn {
  /** Base URL to give the provider package (`baseURL`). */
  baseURL: string;
  /** Every request, in order (rejected ones included). */
  requests: RecordedRequest[];
  /**
   * What the model was shown at each request it answered (instructions, messages, tool
   * results, tool schemas), in a form that is the same for every provider.
   */
  views: ModelView[];
  /** Schema problems found in the requests, in order (the reply to such a request is a 400). */
  schemaProblems: string[];
  /** Errors thrown by a script function (the request got a 500 naming it). */
  scriptErrors: string[];
  close(): Promise<void>;
}

/** How a stand-in answers one request; `index` counts requests from 0. */
export type ReplyFunction = (request: RecordedRequest, index: number) => StandInReply;

export interface StandInOptions {
  /** Path prefix of the API, e.g. `/v1`; the base URL ends with it. */
  prefix: string;
  reply: ReplyFunction;
}

/** Largest request body read (a model request with a long history is a few hundred KB). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

class BodyTooLargeError extends Error {}

async function readJson(request: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Json);
}

function sseLine(event: SseEvent | unknown, named: boolean): string {
  if (!named) return `data: ${JSON.stringify(event)}\n\n`;
  const { event: name, data } = event as SseEvent;
  return `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

function send(response: ServerResponse, reply: StandInReply): void {
  if ('json' in reply) {
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply.json));
    return;
  }
  response.writeHead(reply.status, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
  });
  for (const event of reply.events) response.write(sseLine(event, reply.named === true));
  if (reply.done) response.write('data: [DONE]\n\n');
  response.end();
}

function errorReply(error: unknown): StandInReply {
  const status = error instanceof BodyTooLargeError ? 413 : 500;
  const message = error instanceof Error ? error.message : String(error);
  return { status, json: { error: { message, type: 'stand_in_error' } } };
}

/** Starts a stand-in on 127.0.0.1 and a free port. */
export async function startStandIn(options: StandInOptions): Promise<RunningStandIn> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    readJson(request)
      .then((body) => {
        const recorded: RecordedRequest = {
          method: request.method ?? 'GET',
          path: (request.url ?? '/').slice(options.prefix.length),
          headers: request.headers,
          body,
        };
        requests.push(recorded);
        send(response, options.reply(recorded, requests.length - 1));
      })
      .catch((error: unknown) => send(response, errorReply(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${options.prefix}`,
    requests,
    views: [],
    schemaProblems: [],
    scriptErrors: [],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
