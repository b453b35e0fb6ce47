import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a provider package sent to a stand-in. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** What a stand-in answers: a status and a JSON body, or a server-sent event stream. */
export type StandInReply =
  | { status: number; json: unknown }
  | { status: number; events: readonly unknown[]; done?: boolean };

/** A provider's HTTP API on loopback, answering with `reply` and recording every request. */
export interface RunningStandIn {
  /** Base URL to give the provider package (`baseURL`). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Schema problems found in the requests, in order (the reply to such a request is a 400). */
  schemaProblems: string[];
  close(): Promise<void>;
}

export interface StandInOptions {
  /** Path prefix of the API, e.g. `/v1`; the base URL ends with it. */
  prefix: string;
  reply(request: RecordedRequest, index: number): StandInReply;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** Starts a stand-in on 127.0.0.1 and a free port. */
export async function startStandIn(options: StandInOptions): Promise<RunningStandIn> {
  const requests: RecordedRequest[] = [];
  const schemaProblems: string[] = [];
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
        const reply = options.reply(recorded, requests.length - 1);
        if ('json' in reply) {
          response.writeHead(reply.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(reply.json));
          return;
        }
        response.writeHead(reply.status, { 'content-type': 'text/event-stream' });
        for (const event of reply.events) response.write(`data: ${JSON.stringify(event)}\n\n`);
        if (reply.done) response.write('data: [DONE]\n\n');
        response.end();
      })
      .catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error) } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${options.prefix}`,
    requests,
    schemaProblems,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
