/*
 * The key in the 23 forms of issue 36, through the one secrets check (assertKeyNotShown): the 13
 * an echo takes or the shopper's renderer shows as the key fail in the answer and in `ui`; the 10
 * disguises fail where the model was sent the key; text that only looks like it passes.
 */
import { describe, expect, it } from 'vitest';
import { secretsShown, shownText } from '../src/assertions/echoes.js';
import { assertBuyLinksVerified, assertKeyNotShown, CatalogAssertionError } from '../src/index.js';

/** The problems an assertion reports, or none. */
function problemsOf(check: () => void): string[] {
  try {
    check();
    return [];
  } catch (error) {
    if (error instanceof CatalogAssertionError) return [...error.problems];
    throw error;
  }
}

const KEY = 'ck_live_9fK2qL7xWm4Rt8Vz';

const chars = [...KEY];
const hex2 = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * Each form, as it would be written into an answer: the forms an accidental echo takes (code
 * that serializes, URL-encodes, HTML-escapes or base64-encodes the key), which core's redactor
 * finds, and the forms the shopper's renderer shows as the key.
 */
const FORMS: Record<string, string> = {
  'as written': KEY,
  'upper case': KEY.toUpperCase(),
  'inside a JSON string': JSON.stringify({ key: KEY }),
  'URL-encoded in a query': `https://shop.example/?k=${encodeURIComponent(KEY)}`,
  'every character percent-encoded': chars.map((c) => `%${hex2(c).toUpperCase()}`).join(''),
  'every character percent-encoded, lower case': chars.map((c) => `%${hex2(c)}`).join(''),
  'HTML decimal references': chars.map((c) => `&#${c.charCodeAt(0)};`).join(''),
  'HTML hex references': chars.map((c) => `&#x${hex2(c)};`).join(''),
  'HTML references, zero-padded': chars.map((c) => `&#000${c.charCodeAt(0)};`).join(''),
  'named references for its punctuation': KEY.replaceAll('_', '&lowbar;'),
  'JSON \\u escapes': chars.map((c) => `\\u00${hex2(c)}`).join(''),
  base64: Buffer.from(KEY).toString('base64'),
  'zero-width spaces between its characters': chars.join('\u200b'),
};

/**
 * Disguises: forms only a holder of the key writes, on purpose. The kit does not search for
 * them (nor does core's redactor, docs/SECURITY.md): a model can only write them once it was
 * sent the key, and that request fails the check; raw HTML fails the link check and is shown
 * by the renderer as text, tags and all.
 */
const DISGUISES: Record<string, string> = {
  'percent-encoded twice': chars.map((c) => `%25${hex2(c)}`).join(''),
  'HTML references without semicolons': chars.map((c) => `&#${c.charCodeAt(0)}`).join(''),
  'JavaScript \\u{} escapes': chars.map((c) => `\\u{${hex2(c)}}`).join(''),
  'JavaScript \\x escapes': chars.map((c) => `\\x${hex2(c)}`).join(''),
  'base64url of a longer text': Buffer.from(`>>${KEY}`).toString('base64url'),
  hex: Buffer.from(KEY).toString('hex'),
  reversed: [...KEY].reverse().join(''),
  'spaced out': chars.join(' '),
  'HTML tags between its characters': chars.join('<span></span>'),
  'an HTML comment in the middle': `${KEY.slice(0, 10)}<!-- hidden -->${KEY.slice(10)}`,
};

describe('the key in each form an echo takes or the shopper reads as the key', () => {
  it('lists 13 forms and 10 disguises (the 23 of issue 36)', () => {
    expect(Object.keys(FORMS)).toHaveLength(13);
    expect(Object.keys(DISGUISES)).toHaveLength(10);
  });

  for (const [name, form] of Object.entries(FORMS)) {
    it(`fails in the answer: ${name}`, () => {
      const seen = { answer: `Here you go: ${form} — enjoy.` };
      expect(() => assertKeyNotShown(KEY, seen)).toThrow(
        /the secret ck_l… \(24 characters\) is in the final answer/,
      );
    });
    it(`fails in what the browser received: ${name}`, () => {
      const ui = [{ type: 'text-delta', id: '1', delta: form }];
      expect(() => assertKeyNotShown(KEY, { ui })).toThrow(CatalogAssertionError);
    });
  }

  for (const [name, form] of Object.entries(DISGUISES)) {
    it(`a disguise (${name}) fails where the model was sent the key`, () => {
      const model = [
        { method: 'POST', path: '/responses', headers: {}, body: { instructions: KEY } },
      ];
      const seen = { model, answer: `Here you go: ${form} — enjoy.` };
      // Whether core's matcher also reads the disguise is core's scope, not the kit's.
      expect(problemsOf(() => assertKeyNotShown(KEY, seen))).toContain(
        'the secret ck_l… (24 characters) is in model request 1',
      );
    });
  }

  it('a disguise in raw HTML fails the link check (raw HTML is never shown as HTML)', () => {
    for (const name of ['HTML tags between its characters', 'an HTML comment in the middle']) {
      expect(() => assertBuyLinksVerified(`Here you go: ${DISGUISES[name]}`, [])).toThrow(
        /raw HTML/,
      );
    }
  });

  it('finds a key streamed in pieces: the deltas of one text part joined', () => {
    const ui = [
      { type: 'text-start', id: 't1' },
      ...[KEY.slice(0, 5), KEY.slice(5, 11), KEY.slice(11)].map((delta) => ({
        type: 'text-delta',
        id: 't1',
        delta,
      })),
      { type: 'text-end', id: 't1' },
    ];
    expect(problemsOf(() => assertKeyNotShown(KEY, { ui }))).toEqual([
      'the secret ck_l… (24 characters) is in what the browser received',
    ]);
    // Two parts, each a piece: the page shows them apart.
    const apart = [
      { type: 'text-delta', id: 'a', delta: KEY.slice(0, 12) },
      { type: 'text-delta', id: 'b', delta: KEY.slice(12) },
    ];
    expect(problemsOf(() => assertKeyNotShown(KEY, { ui: apart }))).toEqual([]);
  });

  it('never prints the key in its message, in any form', () => {
    try {
      assertKeyNotShown(KEY, { answer: FORMS['HTML hex references'] });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain(KEY);
    }
  });

  it('passes text that only looks like it: another key, entities and escapes of other text', () => {
    const other = 'ck_live_Qa7Pz3Ld0Ns5Ye1J';
    const answer = [
      other,
      [...'ck_live_'].map((c) => `&#${c.charCodeAt(0)};`).join(''),
      '%E2%9C%93 \\u00e9 &amp; <b>bold</b> https://shop.example/p?a=1&amp;b=2',
    ].join('\n');
    expect(() => assertKeyNotShown(KEY, { answer, ui: [{ text: answer }] })).not.toThrow();
  });

  it('reads a long answer full of references in linear time', () => {
    const answer = `${'&#x61;<b'.repeat(50_000)}${'<!--'.repeat(20_000)}`;
    const started = performance.now();
    expect(() => assertKeyNotShown(KEY, { answer })).not.toThrow();
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('B8: time grows with the text alone, not text × secret length (medians)', () => {
    const secretOf = (length: number) =>
      `ck_live_${Array.from({ length: length - 8 }, (_, i) => 'abcdefghjkmnpqrstuvwxyz23456789'[(i * 7) % 31]).join('')}`;
    const textOf = (secret: string, size: number) => {
      const unit = `Great **shoes** &amp; [a](https://x.example/?q=%41) &#x61; \\u0063 ${secret.slice(0, 9)} ${secret.slice(0, -1)}\n`;
      return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    };
    const median = (secret: string, text: string) => {
      const times = [0, 1, 2, 3, 4].map(() => {
        const started = performance.now();
        expect(secretsShown(text, [secret])).toEqual([]);
        return performance.now() - started;
      });
      return times.sort((a, b) => a - b)[2] ?? 0;
    };
    const short = secretOf(24);
    const long = secretOf(480);
    median(short, textOf(short, 100_000)); // warm up
    const small = median(short, textOf(short, 200_000));
    const large = median(short, textOf(short, 2_000_000));
    const largeLong = median(long, textOf(long, 2_000_000));
    // Linear: 10× the text about 10× the time; quadratic would be 100×. The old matcher's
    // time grew with the secret's length (a scan per 12-character run): 20× here.
    expect(large / small).toBeLessThan(35);
    expect(largeLong / large).toBeLessThan(4);
  });
});

describe('red team (wave 4, kit secrets)', () => {
  const shows = (answer: string) => {
    try {
      assertKeyNotShown(KEY, { answer });
      return false;
    } catch (error) {
      if (error instanceof CatalogAssertionError) return true;
      throw error;
    }
  };

  it('B1: the key split by Markdown links is found as the renderer shows it', () => {
    expect(shows(`[ck_live_](https://a.example)[9fK2qL7x](https://b.example)Wm4Rt8Vz`)).toBe(true);
  });

  it('B2: invisible characters between the pieces (named references, tag characters)', () => {
    expect(shows('ck_live_9fK2&zwj;qL7xWm4&ZeroWidthSpace;Rt8Vz')).toBe(true);
    expect(shows('ck_live_9fK2\u034fqL7xWm4\u{E0041}Rt8Vz')).toBe(true);
  });

  it('B5: references padded with zeros', () => {
    expect(
      shows([...KEY].map((c) => `&#${String(c.charCodeAt(0)).padStart(8, '0')};`).join('')),
    ).toBe(true);
  });

  it('B7: a key ending in zeros is not "found" in prices or a nil UUID', () => {
    const demoKey = 'ck_test_valid_0000000000000000';
    const answer =
      'Prices: 0.00, 0.00, 0.00, 0.00, 0.00, 0.00; $1,000,000,000,000; id 00000000-0000-0000-0000-000000000000';
    expect(() => assertKeyNotShown(demoKey, { answer })).not.toThrow();
    expect(() => assertKeyNotShown(demoKey, { answer: `key ${demoKey}` })).toThrow(
      CatalogAssertionError,
    );
  });
});

describe('B3, B4: no text is hidden by HTML (the renderer shows raw HTML as text)', () => {
  // The key with zero-width spaces: as written it is not the key; as the page shows it, it is.
  const hidden = [...KEY].join('\u200b');
  const hiders = [
    `<span hidden>${hidden}</span>`,
    `<div style="display:none">\n\n${hidden}\n\n</div>`,
    `<!-- ${hidden} -->`,
    `<!-- ${hidden}`,
    `<script>let k = "${hidden}"</script>`,
    `<template>${hidden}</template>`,
    `<textarea hidden>${hidden}</textarea>`,
    `<img alt="${hidden}" src="x.png">`,
    `<a title="a>b" data-k="${hidden}">x</a>`,
    `<b title='x<y'>${hidden}</b>`,
  ];

  it("the shown text is the renderer's: Markdown rendered, raw HTML and references as text", () => {
    expect(
      shownText('<span hidden>a</span> *b* &amp;lt; &#99; [x](https://y.example) <!-- c'),
    ).toBe('<span hidden>a</span> b &lt; c x <!-- c\n');
    expect(shownText(`a\u200b\u{E0041}b`)).toBe('ab\n');
  });

  it.each(hiders)('finds the key HTML would hide: %s', (html) => {
    expect(problemsOf(() => assertKeyNotShown(KEY, { answer: `Shoes. ${html} Enjoy.` }))).toEqual([
      'the secret ck_l… (24 characters) is in the final answer',
    ]);
  });

  // An unclosed comment is no HTML to the parser: text, shown as typed (and found above).
  it.each(hiders.filter((html) => html.includes('>')))(
    'and the answer fails the link check (raw HTML): %s',
    (html) => {
      expect(() => assertBuyLinksVerified(`Shoes. ${html} Enjoy.`, [])).toThrow(/raw HTML/);
    },
  );
});
