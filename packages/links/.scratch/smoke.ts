import { renderAnswerHtml, verifyBuyLinks, finalizeBuyLinks, buyLinkReference } from '../src/index.ts';
const BUY = 'https://go.example/r/1?sig=a&x=2';
const tr = [{ toolName: 'search_catalog', output: { response: { products: [{ id: 'p', variants: [{ url: BUY }] }] } } }];
for (const t of [`[Buy](${BUY}) and <${BUY}> and ${BUY}.`, `<svg><a href="${BUY}"><set attributeName="href" to="javascript:alert(1)"/>Buy</a></svg>`, `[x](javascript:alert(1)) ![i](https://evil/x.png) [r][r]\n\n[r]: ${BUY}`, `Buy ${buyLinkReference(BUY)}`]) {
  console.log(JSON.stringify(verifyBuyLinks(t, tr)));
  console.log(renderAnswerHtml(t, tr));
}
console.log(JSON.stringify(finalizeBuyLinks(`Buy ${buyLinkReference(BUY)}`, tr)));
