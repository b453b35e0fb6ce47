import { connect, type Socket } from 'node:net';

/**
 * One RESP2 reply, with its type kept: a status (`+OK`) and a bulk string (`$2\r\nOK`) read
 * the same through ioredis or node-redis, but the Upstash REST protocol encodes them
 * differently, so the stand-in needs to tell them apart.
 */
export type RespReply =
  | { type: 'status'; value: string }
  | { type: 'error'; value: string }
  | { type: 'integer'; value: number }
  | { type: 'bulk'; value: string | null }
  | { type: 'array'; value: RespReply[] | null };

interface Parsed {
  reply: RespReply;
  end: number;
}

/** Parses one reply at `start`, or returns undefined when the buffer does not hold all of it. */
function parseReply(buffer: Buffer, start: number): Parsed | undefined {
  const end = buffer.indexOf('\r\n', start);
  if (end < 0) return undefined;
  const kind = String.fromCharCode(buffer[start] ?? 0);
  const line = buffer.toString('utf8', start + 1, end);
  const next = end + 2;
  switch (kind) {
    case '+':
      return { reply: { type: 'status', value: line }, end: next };
    case '-':
      return { reply: { type: 'error', value: line }, end: next };
    case ':':
      return { reply: { type: 'integer', value: Number(line) }, end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { reply: { type: 'bulk', value: null }, end: next };
      if (buffer.length < next + length + 2) return undefined;
      const value = buffer.toString('utf8', next, next + length);
      return { reply: { type: 'bulk', value }, end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { reply: { type: 'array', value: null }, end: next };
      const items: RespReply[] = [];
      let offset = next;
      for (let index = 0; index < count; index++) {
        const item = parseReply(buffer, offset);
        if (!item) return undefined;
        items.push(item.reply);
        offset = item.end;
      }
      return { reply: { type: 'array', value: items }, end: offset };
    }
    default:
      throw new Error(`unexpected RESP type byte ${JSON.stringify(kind)}`);
  }
}

function encodeCommand(args: readonly string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const arg of args) parts.push(`$${Buffer.byteLength(arg)}\r\n${arg}\r\n`);
  return Buffer.from(parts.join(''));
}

interface Pending {
  resolve: (reply: RespReply) => void;
  reject: (error: Error) => void;
}

/**
 * A minimal RESP2 connection for the tests: independent of the clients under test, it
 * inspects what they wrote and carries the Upstash stand-in's commands. Commands are
 * pipelined and answered in order; when the socket closes, every waiting command fails.
 */
export class RespConnection {
  readonly #socket: Socket;
  readonly #pending: Pending[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #closed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new Error('connection to redis-server closed')));
  }

  /** Connects (and authenticates when `password` is given). */
  static async open(port: number, password?: string): Promise<RespConnection> {
    const socket = connect({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const connection = new RespConnection(socket);
    if (password !== undefined) {
      const reply = await connection.send(['AUTH', password]);
      if (reply.type === 'error') {
        connection.close();
        throw new Error(`AUTH refused: ${reply.value}`);
      }
    }
    return connection;
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Sends one command; resolves with its reply (an error reply is a value, not a throw). */
  send(args: readonly string[]): Promise<RespReply> {
    return this.sendMany([args]).then(([reply]) => reply as RespReply);
  }

  /** Writes several commands in one go (so no other command lands between them). */
  sendMany(commands: ReadonlyArray<readonly string[]>): Promise<RespReply[]> {
    if (this.#closed) return Promise.reject(this.#closed);
    const replies = commands.map(
      () =>
        new Promise<RespReply>((resolve, reject) => {
          this.#pending.push({ resolve, reject });
        }),
    );
    this.#socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  close(): void {
    this.#socket.destroy();
  }

  #onData(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let offset = 0;
    for (;;) {
      const parsed = parseReply(this.#buffer, offset);
      if (!parsed) break;
      offset = parsed.end;
      this.#pending.shift()?.resolve(parsed.reply);
    }
    this.#buffer = this.#buffer.subarray(offset);
  }

  #fail(error: Error): void {
    this.#closed ??= error;
    for (const waiting of this.#pending.splice(0)) waiting.reject(error);
  }
}

/** The reply as ioredis would give it: plain JS values, error replies thrown. */
export function plain(reply: RespReply): unknown {
  switch (reply.type) {
    case 'error':
      throw new Error(reply.value);
    case 'array':
      return reply.value === null ? null : reply.value.map(plain);
    default:
      return reply.value;
  }
}
