import neo4j from 'neo4j-driver';
import { loadQueryFiles } from './src/graph/query-files.js';
const files = loadQueryFiles();
const driver = neo4j.driver('bolt://127.0.0.1:7690', neo4j.auth.basic('neo4j', 'bench-national-password'));
const s = driver.session();
const [name, runs] = [process.argv[2], Number(process.argv[3] ?? 40)];
const id = (await s.run("MATCH (c:LicenseCredential {state: 'FL', license_number: 'CQ0000001'}) RETURN c.id AS id")).records[0].get('id');
const starts: string[] = [];
for (let m = 0; m < 12; m++) { const d = new Date(Date.UTC(2025, 11 + m, 1)); starts.push(d.toISOString().slice(0, 10)); }
const params = { id, from: starts[0], starts, to: '2026-11-30', skip: neo4j.int(0), end: neo4j.int(10), window: neo4j.int(90), affiliate_role: null, relationship_type: null, g: neo4j.int(0), refs: [] };
const q = name.endsWith('.cypher') ? (await import('node:fs')).readFileSync(name, 'utf8') : files.get(name);
const prof = await s.run('PROFILE ' + q, params);
let hits = 0;
const walk = (p: any) => { hits += p.dbHits; p.children.forEach(walk); };
walk(prof.summary.profile);
const times: number[] = [];
for (let i = 0; i < runs; i++) { const t = performance.now(); await s.run(q, params); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log(name, 'db hits', hits, 'median ms', times[Math.floor(runs / 2)].toFixed(1), 'p90', times[Math.floor(runs * 0.9)].toFixed(1));
if (process.argv[4]) {
  const show = (p: any, depth = 0) => { console.log(' '.repeat(depth * 2) + p.operatorType, 'rows', p.rows, 'hits', p.dbHits); p.children.forEach((c: any) => show(c, depth + 1)); };
  show(prof.summary.profile);
}
const r = (await s.run(q, params)).records[0];
console.log(JSON.stringify(r.toObject(), (k, v) => (typeof v === 'object' && v && 'low' in v && 'high' in v ? Number(v.low) : v)).slice(0, 600));
await s.close(); await driver.close();
