import { parse as mm } from './mm.mjs';
import { parse as mdit } from './mdit.mjs';
const unit = [
 '[Buy](https://shop.example/p/1?a=1&b=2) <svg><a href="x"><set attributeName="href" to="javascript:alert(1)"/></a></svg> ',
 'www.evil.example/x https://go.example@evil.example/ <https://a.example/b> [x][r]\n\n[r]: javascript:alert(1)\n',
 '[[[[[[[[ ]]]]](((((( <!-- c --> <![CDATA[ x ]]> &#106;avascript: `code` **b** _i_ ',
 '* item\n> quote [a](<b c>)\n\n| a | b |\n|---|---|\n| [x](y) | z |\n\n',
];
const pathological = {
  mixed: unit.join(''),
  brackets: '[',
  bracketsParen: '[a](',
  lt: '<a',
  emph: '*a_',
  www: 'www.',
  backtick: '`a',
};
const N = Number(process.env.N);
function make(u) { return u.repeat(Math.ceil(N / u.length)).slice(0, N); }
for (const [name, u] of Object.entries(pathological)) {
  const text = make(u);
  for (const [p, f] of [['micromark', mm], ['markdown-it', mdit]]) {
    const t0 = performance.now();
    try { f(text); } catch (e) { console.log(name, p, 'ERR', e.message.slice(0,80)); continue; }
    console.log(name.padEnd(14), p.padEnd(12), (performance.now() - t0).toFixed(0), 'ms');
  }
}
