/*
 * What a UI stream shows, as one text: the kit's reader of `ui` streams for the secrets
 * check (red team R3: only AI SDK `*-delta` part objects were joined, so a key streamed in
 * 3-character pieces was missed in SSE text, drained bytes, and other frameworks' events).
 * Two steps, whatever the framework:
 * 1. Drained text and bytes (one string, or a run of string / byte chunks in an array) are
 *    parsed into events: SSE (`data:` lines, an event per blank line), AI SDK 4 data-stream
 *    lines (`0:"…"`), NDJSON. Chunks are joined first: a line may be cut anywhere.
 * 2. Every string of an event under a piece field (`delta`, `textDelta`, `text`, `content`,
 *    `inputTextDelta`, `partial_json`), at any depth, is appended to the text of its
 *    stream: the event's type (`type` or `event`), its id (`id`, `item_id`, `index`…) and
 *    the piece's path. Pieces of one stream are joined with nothing between them, as a page
 *    joins them; streams with a line break.
 * Chunks that are no stream are joined as they are (a page shows a body whole). A shape the
 * reader cannot join is a problem, not a pass: a stream with lines in none of the three
 * formats, and a repeated `…delta` / `…chunk` event with no piece field.
 */

/** Most values visited (the walk's budget), and deepest nesting followed. */
const MAX_PARTS = 200_000;
const MAX_DEPTH = 32;

const PIECE_FIELDS = new Set([
  'delta',
  'textDelta',
  'text',
  'content',
  'inputTextDelta',
  'partial_json',
]);
const ID_FIELDS = ['id', 'item_id', 'index', 'output_index', 'content_index', 'run_id'];

/** The text of a UI stream, and the shapes that could not be read. */
export interface StreamedText {
  text: string;
  problems: string[];
}

type Bytes = ArrayBuffer | ArrayBufferView;

function isBytes(value: unknown): value is Bytes {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

function asUint8(value: Bytes): Uint8Array {
  return ArrayBuffer.isView(value)
    ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    : new Uint8Array(value);
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** One AI SDK 4 data-stream line (`0:"text"`, `g:"reasoning"`, `2:[…]`). */
const DATA_STREAM_LINE = /^([0-9a-z]):(.*)$/;

/** The events of drained text, and how many of its lines are no stream line. */
function eventsOfBody(body: string): { events: unknown[]; lines: number; unread: number } {
  const events: unknown[] = [];
  let lines = 0;
  let unread = 0;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload === '[DONE]') return;
    // SSE data that is not JSON is the text itself.
    events.push(parseJson(payload)?.value ?? { type: 'sse data', delta: payload });
  };
  for (const raw of body.split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd();
    if (line === '') {
      dispatch();
      continue;
    }
    lines++;
    const field = /^(data|event|id|retry)(?::(.*))?$/.exec(raw);
    if (field) {
      if (field[1] === 'data') data.push((field[2] ?? '').replace(/^ /, ''));
      continue;
    }
    if (raw.startsWith(':')) continue; // an SSE comment
    const coded = DATA_STREAM_LINE.exec(line);
    const codedValue = coded ? parseJson(coded[2] ?? '') : undefined;
    if (coded && codedValue) {
      const { value } = codedValue;
      events.push(
        typeof value === 'string' ? { type: `data stream ${coded[1]}`, delta: value } : value,
      );
      continue;
    }
    const json = /^[[{]/.test(line) ? parseJson(line) : undefined;
    if (json) events.push(json.value);
    else unread++;
  }
  dispatch();
  return { events, lines, unread };
}

/** A scalar's text for a stream's key. */
function keyPart(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** Reads `ui` into the text of each of its streams. */
export function streamedText(ui: unknown): StreamedText {
  const texts = new Map<string, string>();
  const problems = new Set<string>();
  /** Per `…delta` / `…chunk` kind: how many events, and whether any held a piece. */
  const kinds = new Map<string, { events: number; pieces: number }>();
  let budget = MAX_PARTS;

  const append = (key: string, piece: string) => texts.set(key, (texts.get(key) ?? '') + piece);

  /** Adds the pieces of one event (any value) under its stream's key. */
  const readEvent = (event: unknown) => {
    if (typeof event !== 'object' || event === null) return;
    const record = event as Record<string, unknown>;
    const kind = keyPart(record.type) || keyPart(record.event);
    const id = ID_FIELDS.map((field) => keyPart(record[field])).join(',');
    let pieces = 0;
    const stack: [unknown, string, number][] = [[event, '', 0]];
    while (stack.length > 0 && budget-- > 0) {
      const [value, path, depth] = stack.pop() as [unknown, string, number];
      if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) continue;
      if (isBytes(value)) continue;
      let entries: [string, unknown][];
      try {
        entries = Array.isArray(value)
          ? value.map((item, i) => [String(i), item])
          : Object.entries(value);
      } catch {
        continue; // A value that throws when read is reported by the walk (walkText).
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, item] = entries[i] as [string, unknown];
        const at = `${path}.${name}`;
        if (typeof item === 'string' && PIECE_FIELDS.has(name)) {
          append(`${kind} ${id} ${at}`, item);
          pieces++;
        } else if (typeof item === 'object' && item !== null) stack.push([item, at, depth + 1]);
      }
    }
    if (/delta|chunk/i.test(kind)) {
      const seen = kinds.get(kind) ?? { events: 0, pieces: 0 };
      kinds.set(kind, { events: seen.events + 1, pieces: seen.pieces + pieces });
    }
  };

  /**
   * Reads drained text: its events if it is a stream, else the text itself, its chunks
   * joined (a page shows a body whole). A stream with lines in no known format is a problem.
   */
  const readBody = (body: string, chunks: number) => {
    const { events, lines, unread } = eventsOfBody(body);
    if (unread > 0 && unread < lines) {
      problems.add(
        `what the browser received holds a drained stream the kit cannot read (${unread} of ${lines} lines are not SSE, NDJSON or AI SDK data-stream lines): pass its parts as objects`,
      );
    }
    if (unread < lines) events.forEach(readEvent);
    else if (chunks > 1) append(`body ${texts.size}`, body);
  };

  /** Reads a sequence: runs of text and byte chunks are one drained body; objects are events. */
  const readSequence = (items: readonly unknown[]) => {
    let body = '';
    let chunks = 0;
    let decoder: TextDecoder | undefined;
    const flush = () => {
      if (decoder) body += decoder.decode();
      if (body !== '') readBody(body, chunks);
      body = '';
      chunks = 0;
      decoder = undefined;
    };
    for (const item of items) {
      if (typeof item === 'string') {
        body += item;
        chunks++;
      } else if (isBytes(item)) {
        decoder ??= new TextDecoder();
        body += decoder.decode(asUint8(item), { stream: true });
        chunks++;
      } else {
        flush();
        readEvent(item);
      }
    }
    flush();
  };

  // Every array in `ui` may be a stream; a lone string or bytes may be a drained body.
  const stack: unknown[] = [ui];
  const seen = new Set<object>();
  if (typeof ui === 'string' || isBytes(ui)) readSequence([ui]);
  while (stack.length > 0 && budget-- > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value) || isBytes(value)) continue;
    seen.add(value);
    try {
      const children = Array.isArray(value) ? value : Object.values(value);
      if (Array.isArray(value)) readSequence(value);
      else {
        for (const child of children) {
          if (typeof child === 'string' && /^(data:|[0-9a-z]:["[{])/m.test(child))
            readSequence([child]);
        }
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    } catch {
      // A value that throws when read is reported by the walk (walkText).
    }
  }
  if (budget <= 0) problems.add('what the browser received is too large to read as a stream');
  for (const [kind, { events, pieces }] of kinds) {
    if (events >= 2 && pieces === 0) {
      problems.add(
        `what the browser received streams "${kind}" events with no text the kit can join (none under ${[...PIECE_FIELDS].join(', ')}): pass the text they show`,
      );
    }
  }
  return { text: [...texts.values()].join('\n'), problems: [...problems] };
}
