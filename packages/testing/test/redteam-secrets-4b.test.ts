/*
 * The red team's secrets findings on the kit (wave 4b): R3, a key streamed in pieces in
 * any common UI stream shape (SSE text and bytes, other frameworks' events) is joined and
 * found, an unreadable stream is a problem; R4, secretsShown tells secrets apart in one
 * pass, so its time does not grow with the number of secrets once one is found.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretsShown } from '../src/assertions/echoes.js';
import { secretProblems } from '../src/assertions/secrets.js';

const KEY = 'ck_live_9fA2b7Kq0XyZ3mN8pQ4r';
const pieces = (text: string, size = 3) => text.match(new RegExp(`.{1,${size}}`, 'gs')) ?? [];
const sse = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;
const encoder = new TextEncoder();

/** The red team's 10 shapes of a UI stream, the key streamed in 3-character pieces. */
function shapes(text: string): Record<string, unknown> {
  const deltas = pieces(text);
  const part = (delta: string) => ({ type: 'text-delta', id: '0', delta });
  // Bytes cut at arbitrary points (a chunk may end inside a line or a character).
  const body = deltas.map((delta) => sse(part(delta))).join('');
  const bytes = encoder.encode(body);
  return {
    'AI SDK 5 parts': deltas.map(part),
    'AI SDK 5 SSE strings': deltas.map((delta) => sse(part(delta))),
    'AI SDK 5 body as bytes': pieces(body, 7).map((_, i) => bytes.slice(i * 7, i * 7 + 7)),
    'AI SDK 5 body as one string': body,
    'OpenAI Agents raw_model_stream_event': deltas.map((delta) => ({
      type: 'raw_model_stream_event',
      data: { type: 'output_text_delta', delta },
    })),
    'OpenAI Responses events': deltas.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: 'msg_1',
      delta,
    })),
    'Anthropic content_block_delta': deltas.map((piece) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: piece },
    })),
    'LangChain streamEvents': deltas.map((content) => ({
      event: 'on_chat_model_stream',
      data: { chunk: { content } },
    })),
    'LangChain messages [chunk, meta]': deltas.map((content) => [
      { content, type: 'AIMessageChunk' },
      { langgraph_node: 'agent' },
    ]),
    'AI SDK 4 data stream lines': deltas.map((delta) => `0:${JSON.stringify(delta)}\n`),
  };
}

describe('R3: the kit reads a UI stream whatever its shape', () => {
  const answer = 'Here are three trail shoes.';
  for (const [name, ui] of Object.entries(shapes(`Your key is ${KEY}, keep it safe.`))) {
    it(`finds a key streamed in pieces: ${name}`, () => {
      const problems = secretProblems([KEY], { answer, ui });
      expect(problems.some((problem) => problem.includes('is in what the browser'))).toBe(true);
    });
  }
  for (const [name, ui] of Object.entries(shapes('1. Trail shoe $120, 2. Road shoe $99.'))) {
    it(`passes an honest stream: ${name}`, () => {
      expect(secretProblems([KEY], { answer, ui })).toEqual([]);
    });
  }

  it('reports a stream it cannot join instead of passing it', () => {
    const deltas = pieces(`Your key is ${KEY}.`);
    const unknownField = deltas.map((chunk) => ({ type: 'output-delta', chunk }));
    expect(secretProblems([KEY], { answer, ui: unknownField })).toEqual([
      expect.stringContaining('"output-delta" events with no text the kit can join'),
    ]);
    // SSE with lines in another format: what they show is unknown.
    const mixed = [
      sse({ type: 'text-delta', id: '0', delta: 'Hi' }),
      ...deltas.map((d) => `>${d}\n`),
    ];
    expect(secretProblems([KEY], { answer, ui: mixed })).toEqual([
      expect.stringContaining('a drained stream the kit cannot read (14 of 15 lines'),
    ]);
    // Chunks in no stream format are read as the one body they make.
    const plain = deltas.map((delta) => encoder.encode(delta));
    expect(secretProblems([KEY], { answer, ui: plain })).toEqual([
      expect.stringContaining('is in what the browser received'),
    ]);
  });
});

describe('R4: secretsShown is one pass per view, whatever the number of secrets', () => {
  const cpu = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e3;
  };
  it('1 MB holding the key: 32 secrets cost about what 1 does', () => {
    const unit = '**Trail** shoe &amp; %20 \\u0041 [link](https://shop.example/p?a=1&b=2)\n';
    const text = `${unit.repeat(Math.ceil((1 << 20) / unit.length))}Your key: ${KEY}`;
    const others = Array.from({ length: 31 }, () => `tok_${randomBytes(24).toString('base64url')}`);
    const time = (secrets: string[]) => {
      const runs = [0, 1, 2].map(() => {
        const start = cpu();
        expect(secretsShown(text, secrets)).toEqual([KEY]);
        return cpu() - start;
      });
      return runs.sort((a, b) => a - b)[1] ?? 0;
    };
    const one = time([KEY]);
    // Before: each secret searched alone in both views once one was found (about 12×).
    expect(time([...others, KEY])).toBeLessThan(one * 4);
  });
});
