import type { AuthChallenge } from '../errors/api-errors.js';

// Why a hand-written tokenizer: the registry's candidates did not fit. `auth-header` is
// CommonJS, unmaintained and reads one challenge; `http-auth-utils` only knows the
// Basic/Digest/Bearer schemes and one challenge per header; `www-authenticate` is
// Node-only Digest code; `oauth4webapi` has an RFC 9110 parser but does not export it.
// The grammar (RFC 9110 §11.6.1) is small, so this follows it directly.
//   challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   auth-param = token BWS "=" BWS ( token / quoted-string )

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/** A cursor over the header value. */
class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  skipWhitespace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  skipSeparators(): void {
    while (this.peek() === ' ' || this.peek() === '\t' || this.peek() === ',') this.pos++;
  }

  readWhile(pattern: RegExp): string {
    const start = this.pos;
    while (!this.done && pattern.test(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Reads a quoted-string (cursor on the opening quote); lenient about a missing end quote. */
  readQuoted(): string {
    this.pos++;
    let value = '';
    while (!this.done) {
      const char = this.peek();
      this.pos++;
      if (char === '"') return value;
      if (char === '\\' && !this.done) {
        value += this.peek();
        this.pos++;
      } else {
        value += char;
      }
    }
    return value;
  }
}

/** Reads a token68 if the cursor is on one (it must end the challenge). */
function readToken68(cursor: Cursor): string | undefined {
  const start = cursor.pos;
  const body = cursor.readWhile(TOKEN68_CHAR);
  const padding = cursor.readWhile(/=/);
  cursor.skipWhitespace();
  if (body && (cursor.done || cursor.peek() === ',')) return body + padding;
  cursor.pos = start;
  return undefined;
}

/** Reads one `name=value` pair, or returns undefined (cursor restored) if none is there. */
function readParam(cursor: Cursor): [string, string] | undefined {
  const start = cursor.pos;
  cursor.skipSeparators();
  const name = cursor.readWhile(TOKEN_CHAR);
  cursor.skipWhitespace();
  if (!name || cursor.peek() !== '=') {
    cursor.pos = start;
    return undefined;
  }
  cursor.pos++;
  cursor.skipWhitespace();
  const value = cursor.peek() === '"' ? cursor.readQuoted() : cursor.readWhile(TOKEN_CHAR);
  cursor.skipWhitespace();
  return [name.toLowerCase(), value];
}

function readChallenge(cursor: Cursor, scheme: string): AuthChallenge {
  const challenge: AuthChallenge = { scheme, params: {} };
  if (cursor.peek() !== ' ' && cursor.peek() !== '\t') return challenge;
  cursor.skipWhitespace();
  const token68 = readToken68(cursor);
  if (token68 !== undefined) {
    challenge.token68 = token68;
    return challenge;
  }
  const repeated = new Set<string>();
  for (let param = readParam(cursor); param; param = readParam(cursor)) {
    if (Object.hasOwn(challenge.params, param[0])) repeated.add(param[0]);
    else challenge.params[param[0]] = param[1];
  }
  if (repeated.size > 0) challenge.repeated = [...repeated];
  return challenge;
}

/**
 * Parses a `WWW-Authenticate` value into its challenges (RFC 9110 §11.6.1): several
 * challenges, quoted strings with backslash escapes, commas inside quotes, token68.
 * Parameter names are lower-cased; malformed trailing text is ignored rather than thrown,
 * because the 402 it came with must still surface. A repeated parameter keeps its first
 * value and is named in `repeated`.
 */
export function parseWwwAuthenticate(header: string | null | undefined): AuthChallenge[] {
  if (!header) return [];
  const cursor = new Cursor(header);
  const challenges: AuthChallenge[] = [];
  for (cursor.skipSeparators(); !cursor.done; cursor.skipSeparators()) {
    const scheme = cursor.readWhile(TOKEN_CHAR);
    if (!scheme) break;
    challenges.push(readChallenge(cursor, scheme));
  }
  return challenges;
}
