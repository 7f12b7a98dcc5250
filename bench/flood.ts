// One client's flood, evenly paced and open loop, from a process of its own (national-operating.ts):
// `tsx bench/flood.ts <url> <req/s> <seconds> <authorization>` prints its answers by status and their p99 as JSON.
import { paced, quantile } from './paced.js';

const [url, rate, seconds, authorization] = process.argv.slice(2);
const { origin, pathname, search } = new URL(url);
const r = await paced(origin, { authorization }, { name: 'flood', next: () => ({ path: `${pathname}${search}` }) }, Number(rate), Math.round(Number(rate) * Number(seconds)), 8192);
const statuses: Record<string, number> = { ...r.others, 200: r.samples.length };
console.log(JSON.stringify({ statuses, total: r.all.length, p99: quantile(r.all.sort((a, b) => a - b), 0.99) }));
