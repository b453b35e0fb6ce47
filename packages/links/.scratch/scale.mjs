import { parse as mm } from './mm.mjs';
import { parse as mdit } from './mdit.mjs';
const pats = JSON.parse(process.env.P);
const which = process.env.W;
const f = which === 'mm' ? mm : mdit;
for (const u of pats) for (const n of [25000, 50000, 100000]) {
  const text = u.repeat(Math.ceil(n / u.length)).slice(0, n);
  const t0 = performance.now(); f(text);
  console.log(which, JSON.stringify(u).slice(0,40).padEnd(42), n, (performance.now() - t0).toFixed(0), 'ms');
}
