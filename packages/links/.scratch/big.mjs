import { parse as mdit } from './mdit.mjs';
const u = process.env.U;
const text = u.repeat(Math.ceil(1e7 / u.length)).slice(0, 1e7);
for (let i = 0; i < 2; i++) { const c = process.cpuUsage(); const t0 = performance.now(); mdit(text); const d = process.cpuUsage(c); console.log(JSON.stringify(u).slice(0,30), 'wall', (performance.now()-t0).toFixed(0), 'cpu', ((d.user+d.system)/1000).toFixed(0)); }
