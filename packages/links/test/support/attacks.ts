import { BUY } from './fixtures.js';

/**
 * Hostile answers, each with a real buy link beside the attack so a verified link is on the
 * page too. Every one must be `ok: false` (it holds raw HTML or a link that is not a buy
 * link), and neither renderer may make anything but the buy link clickable.
 */
export const ATTACKS: Readonly<Record<string, string>> = {
  // SVG animation rewriting an href after the check (issue 32's first finding).
  'svg set on href': `<svg><a href="${BUY}"><set attributeName="href" to="javascript:document.title='pwned'"/><text y="20">Buy</text></a></svg>`,
  'svg animate on href': `<svg><a href="${BUY}"><animate attributeName="href" values="javascript:document.title='pwned'"/><text y="20">Buy</text></a></svg>`,
  'svg xlink:href': `<svg><a xlink:href="javascript:document.title='pwned'"><text y="20">Buy</text></a></svg>`,
  'iframe srcdoc script': `<iframe srcdoc="<script>parent.document.title='pwned'</script>"></iframe> [Buy](${BUY})`,
  'iframe srcdoc entity href': `<iframe srcdoc="<a href&#61;'javascript:parent.document.title=1' id=x>Buy</a>"></iframe>`,
  'meta refresh': `<meta http-equiv="refresh" content="0;url=https://evil.example/"> [Buy](${BUY})`,
  'form action': `<form action="https://evil.example/"><button>Buy</button></form>`,
  'form formaction': `<form><button formaction="https://evil.example/">Buy</button></form>`,
  'base href': `<base href="https://evil.example/">\n\n[Buy](/r/1)`,
  'onerror handler': `<img src=x onerror="document.title='pwned'"> [Buy](${BUY})`,
  'onclick on a buy link': `<a href="${BUY}" onclick="document.title='pwned'">Buy</a>`,
  'ontoggle autofire': `<details open ontoggle="document.title='pwned'"><summary>Buy</summary></details>`,
  'script block': `<script>document.title='pwned'</script>\n\n[Buy](${BUY})`,
  'style import': `<style>@import url(https://evil.example/x.css);</style> [Buy](${BUY})`,
  'object data': `<object data="javascript:document.title='pwned'"></object>`,
  'embed src': `<embed src="https://evil.example/x.swf">`,
  'math href': `<math><mtext><a href="javascript:document.title='pwned'">Buy</a></mtext></math>`,
  'template and noscript': `<template><a href="https://evil.example/">Buy</a></template><noscript><a href="https://evil.example/">Buy</a></noscript>`,
  'html a with the buy link': `<a href="${BUY}" target="_blank">Buy</a>`,
  'markdown javascript:': `[Buy](javascript:document.title='pwned')`,
  'autolink javascript:': `<javascript:document.title='pwned'>`,
  'reference javascript:': `[Buy][j]\n\n[j]: javascript:document.title='pwned'`,
  'markdown data:': `[Buy](data:text/html,<script>alert(1)</script>)`,
  'autolink data:': `<data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==>`,
  'markdown vbscript:': `[Buy](vbscript:msgbox(1))`,
  'html javascript:': `<a href="javascript:document.title='pwned'">Buy</a>`,
  'image javascript:': `![Buy](javascript:document.title='pwned')`,
  'image tracker': `![pixel](https://evil.example/t.gif) [Buy](${BUY})`,
  'entity-encoded scheme': `[Buy](&#106;avascript:document.title='pwned')`,
  'entity colon': `[Buy](javascript&colon;document.title='pwned')`,
  'tab in scheme': `[Buy](<java\tscript:document.title='pwned'>)`,
  'percent-encoded scheme': `[Buy](%6Aavascript:document.title='pwned')`,
  'percent-encoded host': `[Buy](https://go%2Eexample/r/1?sig=a1b2)`,
  'entity-encoded host': `[Buy](https://go&#46;example/r/1?sig=a1b2)`,
  'userinfo host': `[Buy](https://go.example@evil.example/r/1)`,
  'userinfo literal': `https://go.example@evil.example/r/1`,
  backslashes: `[Buy](https:\\\\evil.example\\r\\1)`,
  'tab in url': `[Buy](<https://go.example/r/1?u=x\t&sig=a1b2>)`,
  'idn look-alike': `[Buy](https://g\u043e.example/r/1?sig=a1b2)`,
  'buy link behind evil host': `[Buy](https://evil.example/${BUY})`,
  'nested link': `[[Buy](${BUY})](https://evil.example/)`,
  'title smuggling': `[Buy](https://evil.example/ "${BUY}")`,
  'reference-style evil': `[Buy][b]\n\n[b]: https://evil.example/`,
  'shortcut reference': `[Buy]\n\n[Buy]: https://evil.example/`,
  'autolink evil': `<https://evil.example/> [Buy](${BUY})`,
  'www literal': `www.evil.com/buy [Buy](${BUY})`,
  'email literal': `mail me: evil@evil.example`,
  'comment hiding html': `<!-- [Buy](${BUY}) --><a href="javascript:document.title='pwned'">x</a>`,
  cdata: `<![CDATA[<a href="javascript:document.title='pwned'">x</a>]]> [Buy](${BUY})`,
  'html block across lines': `<div\nonmouseover="document.title='pwned'">\n\n[Buy](${BUY})\n\n</div>`,
  'buy link with trailing junk': `[Buy](${BUY}x)`,
};

const EVIL = 'https://evil.example/phish';

/**
 * The links red team's L1–L7 (all but L5, which needs a buy link holding `~`: see
 * gfm.test.ts): answers markdown-it (verifyBuyLinks, renderAnswerHtml) and remark-gfm
 * (react-markdown, Streamdown) read differently. verifyBuyLinks says `ok` for each, as markdown-it
 * reads it; a GFM renderer without rehypeBuyLinks links or runs what is in them. Both renderers
 * of the package must still make nothing clickable but the buy link, and run nothing.
 */
export const GFM_DISAGREEMENTS: Readonly<Record<string, string>> = {
  'L1 footnote continuation, a link': `Buy: ${BUY} [^1]\n\n[^1]: A note\n\n    [Buy now](${EVIL})`,
  'L1 footnote continuation, raw HTML': `Buy: ${BUY} [^1]\n\n[^1]: A note\n\n    <img src=x onerror="document.title='pwned'">`,
  'L1 footnote call and back-reference': `Buy: ${BUY} [^1]\n\n[^1]: A note`,
  'L2 footnote label read as a definition': `Buy: ${BUY}\n\n[^x]:\n${EVIL}`,
  'L2 multi-line title swallows Markdown and HTML': `Buy: ${BUY}\n\n[^x]:\n${BUY}\n"\n[Buy now](${EVIL})\n<img src=x onerror=document.title&#61;&#39;pwned&#39;>\n"`,
  'L2 e-mail': `Buy: ${BUY}\n\n[^1]:\n evil@evil.example`,
  'L3 indented line after a definition': `Buy: ${BUY}\n\n[a]: /x\n    [Buy now](${EVIL})`,
  'L3 tab after a definition with title': `[a]: ${BUY} "t"\n\t<${EVIL}>\n\nBuy: ${BUY}`,
  'L4 definition as a table header': `[a]: ${EVIL}\n| - |\n\nBuy: ${BUY}`,
  'L4 autolink javascript: as a table header': `[a]: <javascript:document.title='pwned'>\n| - |\n\nBuy: ${BUY}`,
  'L6 one-column table, letter before the scheme': `Buy: ${BUY}\n\n[Deals\n:-\n\u00e9https://evil.example/phish`,
  'L6 one-column table, dotless host': `Buy: ${BUY}\n\n[Deals\n-|\nhttps://3627734734/phish`,
  'L7 NBSP in a reference label': `[Buy][deal offer]\n\n[deal\u00a0offer]: ${BUY}\n[deal offer]: ${EVIL}`,
  'L7 ideographic space trimmed': `[Buy][deal]\n\n[deal\u3000]: ${BUY}\n[deal]: ${EVIL}`,
};
