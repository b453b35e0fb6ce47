import { request as httpRequest } from 'node:http';

/** What a raw POST got back, and how many body bytes the client managed to send first. */
export interface RawAnswer {
  status: number;
  body: string;
  sentBytes: number;
  elapsedMs: number;
}

/**
 * POSTs to `url` writing `chunk` every `everyMs` ms until the server answers (or `chunks`
 * have gone, then ends the body): a client that streams an endless or a trickling body,
 * which fetch cannot be made to do.
 */
export function rawPost(
  url: URL,
  options: { chunk: Uint8Array; chunks: number; everyMs: number; headers?: Record<string, string> },
): Promise<RawAnswer> {
  const started = performance.now();
  let sentBytes = 0;
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...options.headers,
      },
    });
    let timer: ReturnType<typeof setInterval> | undefined;
    let left = options.chunks;
    const write = () => {
      if (left === 0) {
        clearInterval(timer);
        request.end();
        return;
      }
      left -= 1;
      sentBytes += options.chunk.byteLength;
      request.write(options.chunk);
    };
    request.on('response', (response) => {
      clearInterval(timer);
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          sentBytes,
          elapsedMs: performance.now() - started,
        });
        request.destroy();
      });
    });
    request.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    request.flushHeaders();
    write();
    timer = setInterval(write, options.everyMs);
  });
}
