/**
 * A minimal `text/event-stream` reader (WHATWG HTML §9.2.6) for what the client needs: the
 * `data` of each event. Lines end with CRLF, LF or CR, possibly split across chunks;
 * comments and other fields (`event`, `id`, `retry`) are skipped; an event's `data` lines
 * are joined with LF. Each chunk is scanned once, and an open line is kept as pieces until
 * it ends, so a line of megabytes costs one join, not a copy per chunk.
 */
export class SseEventReader {
  #openLine: string[] = [];
  #openLineLength = 0;
  #data: string[] = [];
  #hasData = false;
  /** A chunk ended with CR: an LF starting the next chunk belongs to the same line end. */
  #skipLeadingLf = false;

  /**
   * Feeds decoded text; calls `onData` with each complete event's data until it returns
   * true (found what it wanted), and then returns true too.
   */
  feed(text: string, onData: (data: string) => boolean): boolean {
    let position = this.#skipLeadingLf && text.charCodeAt(0) === 10 ? 1 : 0;
    if (text.length > 0) this.#skipLeadingLf = false;
    // The next LF and CR at or after `position`, found once and reused until passed: a
    // fresh search per line would rescan the chunk for each of many short lines.
    let nextLf = text.indexOf('\n', position);
    let nextCr = text.indexOf('\r', position);
    while (position < text.length) {
      if (nextLf !== -1 && nextLf < position) nextLf = text.indexOf('\n', position);
      if (nextCr !== -1 && nextCr < position) nextCr = text.indexOf('\r', position);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (end === -1) {
        this.#openLine.push(text.slice(position));
        this.#openLineLength += text.length - position;
        return false;
      }
      const line = this.#closeLine(text.slice(position, end));
      position = this.#afterLineEnd(text, end);
      if (this.#line(line, onData)) return true;
    }
    return false;
  }

  /** Ends the stream: a last event without its closing blank line is still delivered. */
  end(onData: (data: string) => boolean): boolean {
    if (this.#openLine.length > 0 && this.#line(this.#closeLine(''), onData)) return true;
    return this.#line('', onData);
  }

  /** Characters of the line not ended yet (a cap on it bounds what the reader holds). */
  get openLineLength(): number {
    return this.#openLineLength;
  }

  #closeLine(tail: string): string {
    if (this.#openLine.length === 0) return tail;
    this.#openLine.push(tail);
    const line = this.#openLine.join('');
    this.#openLine = [];
    this.#openLineLength = 0;
    return line;
  }

  #afterLineEnd(text: string, end: number): number {
    if (text.charCodeAt(end) !== 13) return end + 1;
    if (end + 1 === text.length) {
      this.#skipLeadingLf = true;
      return end + 1;
    }
    return text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
  }

  #line(line: string, onData: (data: string) => boolean): boolean {
    if (line === '') return this.#dispatch(onData);
    const colon = line.indexOf(':');
    if (colon === 0) return false; // a comment
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return false;
    // One space after the colon is part of the syntax, not of the value.
    const start =
      colon === -1 ? line.length : line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
    this.#data.push(line.slice(start));
    this.#hasData = true;
    return false;
  }

  #dispatch(onData: (data: string) => boolean): boolean {
    if (!this.#hasData) return false;
    const data = this.#data.length === 1 ? (this.#data[0] as string) : this.#data.join('\n');
    this.#data = [];
    this.#hasData = false;
    return onData(data);
  }
}
