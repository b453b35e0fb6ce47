import { buyLinkReference } from '@catalogkit/links';
import type { TextStreamPart, ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  finalizeResultBuyLinks,
  finalizeUIMessageBuyLinks,
  resolveBuyLinksTransform,
} from '../src/index.js';

// Provenance (issue 23): only the catalog search tool's results give buy links. A tool that
// fetches pages can return anything, including a catalog-shaped object with a phishing link.
const TRUE_LINK = 'https://go.catalogkit.test/r/web_1?pub=p&sig=abc';
const EVIL = 'https://evil.example/checkout';
const catalogOutput = {
  request: { query: 'x' },
  response: { products: [{ variants: [{ url: TRUE_LINK }] }] },
  tier: 'token',
};
const fetchedOutput = {
  products: [{ variants: [{ url: EVIL }] }],
  response: { products: [{ url: EVIL }] },
  result: { products: [{ url: EVIL }] },
};

type Part = TextStreamPart<ToolSet>;

async function transformed(parts: Part[]): Promise<string> {
  const transform = resolveBuyLinksTransform()({ tools: {}, stopStream: () => {} } as never);
  const reader = new ReadableStream<Part>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  })
    .pipeThrough(transform)
    .getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    if (value.type === 'text-delta') text += value.text;
  }
}

function toolResult(toolName: string, output: unknown): Part {
  return {
    type: 'tool-result',
    toolCallId: toolName,
    toolName,
    input: {},
    output,
  } as unknown as Part;
}

describe('buy links come only from the catalog tool (AI SDK helpers)', () => {
  it("resolveBuyLinksTransform: a web_fetch result's link never resolves a reference", async () => {
    const text = `a ${buyLinkReference(EVIL)} b ${buyLinkReference(TRUE_LINK)}`;
    const out = await transformed([
      toolResult('web_fetch', fetchedOutput),
      toolResult('search_catalog', catalogOutput),
      { type: 'text-delta', id: 't', text } as Part,
      { type: 'text-end', id: 't' } as Part,
    ]);
    expect(out).toBe(`a ${buyLinkReference(EVIL)} b ${TRUE_LINK}`);
  });

  it('finalizeResultBuyLinks: a web_fetch result verifies nothing', () => {
    const result = {
      text: `Buy: ${EVIL} or ${TRUE_LINK}`,
      steps: [
        {
          toolResults: [
            { toolName: 'web_fetch', output: fetchedOutput },
            { toolName: 'search_catalog', output: catalogOutput },
          ],
        },
      ],
    };
    const final = finalizeResultBuyLinks(result);
    expect(final.ok).toBe(false);
    expect(final.issues.map((issue) => issue.url)).toEqual([EVIL]);
  });

  it('finalizeUIMessageBuyLinks: tool parts are trusted by their tool name, stored as JSON', () => {
    const messages = JSON.parse(
      JSON.stringify([
        {
          role: 'assistant',
          parts: [
            { type: 'tool-web_fetch', state: 'output-available', output: fetchedOutput },
            {
              type: 'dynamic-tool',
              toolName: 'search_catalog',
              state: 'output-available',
              output: catalogOutput,
            },
            { type: 'text', text: `Buy: ${EVIL}` },
            { type: 'text', text: `Buy: ${TRUE_LINK}` },
          ],
        },
      ]),
    );
    const safe = finalizeUIMessageBuyLinks(messages);
    expect(safe.reports.map((report) => report.ok)).toEqual([false, true]);
    expect(safe.ok).toBe(false);
  });
});
