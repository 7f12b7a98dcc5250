// What `npm test` costs in CPU, one commit against another (issue 56: a refactor keeps the suite's
// CPU within 3%). Each commit is cloned from this repository into a folder of its own and installed
// once; then `npm test` runs in pairs, --runs pairs, the side that goes first alternating (a
// machine whose pace drifts over an hour favours neither side), nothing else running. Per run: wall
// time, the CPU of `npm test` and the children it waited for (getrusage), and the machine's CPU
// over the run from /proc/stat (the Neo4j servers the suite starts included). Prints medians and
// the after/before ratios.
// Usage: npm run bench:test-cpu -- --before <commit> [--after HEAD] [--runs 3] [--dir /tmp/lvs-test-cpu]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { before: { type: 'string' }, after: { type: 'string', default: 'HEAD' }, runs: { type: 'string', default: '3' }, dir: { type: 'string', default: path.join(os.tmpdir(), 'lvs-test-cpu') } },
});
if (!values.before) throw new Error('--before <commit> is required');
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(values.runs);
const TICK = 100; // USER_HZ: /proc/stat counts in hundredths of a second on Linux
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The machine's busy CPU seconds so far (user, nice, system, irq, softirq, steal). */
function machineCpu(): number {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + steal) / TICK;
}

/** A clone of `ref` under the bench folder, installed (Neo4j's jars linked from this checkout). */
function checkout(name: string, ref: string): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', ref], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(values.dir!, name);
  if (!fs.existsSync(path.join(dir, '.git')) || execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim() !== commit) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync('git', ['clone', '--quiet', ROOT, dir]);
    execFileSync('git', ['checkout', '--quiet', commit], { cwd: dir });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent'], { cwd: dir, stdio: 'inherit' });
  }
  const jars = path.join(ROOT, 'tools/neo4j/lib');
  if (fs.existsSync(jars) && !fs.existsSync(path.join(dir, 'tools/neo4j/lib'))) fs.symlinkSync(jars, path.join(dir, 'tools/neo4j/lib'));
  return { dir, commit };
}

interface Run { wall: number; own: number; machine: number; passed: boolean }

function run(dir: string): Run {
  const machine0 = machineCpu();
  const t0 = performance.now();
  // /usr/bin/time reports what the command and the children it waited for used.
  const out = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', 'npm', 'test'], { cwd: dir, encoding: 'utf8', env: { ...process.env, REQUIRE_NEO4J: '1' }, maxBuffer: 1 << 30 });
  const wall = (performance.now() - t0) / 1000;
  const m = /CPU (\S+) (\S+)\s*$/.exec(out.stderr);
  if (!m) throw new Error(`no CPU line from /usr/bin/time:\n${out.stderr.slice(-2000)}`);
  return { wall, own: Number(m[1]) + Number(m[2]), machine: machineCpu() - machine0, passed: out.status === 0 };
}

const sides = { before: checkout('before', values.before), after: checkout('after', values.after!) };
console.log(`npm test CPU: before ${sides.before.commit.slice(0, 7)}, after ${sides.after.commit.slice(0, 7)}, ${RUNS} runs each, in pairs, the first side alternating, ${os.cpus().length} cores`);
const results: Record<'before' | 'after', Run[]> = { before: [], after: [] };
for (let i = 1; i <= RUNS; i++) {
  for (const side of i % 2 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
    const r = run(sides[side].dir);
    results[side].push(r);
    console.log(`  ${new Date().toISOString().slice(11, 16)} run ${i} ${side.padEnd(6)} wall ${r.wall.toFixed(0)} s, npm test CPU ${r.own.toFixed(0)} s, machine CPU ${r.machine.toFixed(0)} s${r.passed ? '' : '  (the suite FAILED)'}`);
  }
}
const med = (side: 'before' | 'after', k: keyof Omit<Run, 'passed'>) => median(results[side].map((r) => r[k]));
for (const k of ['wall', 'own', 'machine'] as const) {
  const label = { wall: 'wall', own: 'npm test CPU (user + system)', machine: 'machine CPU' }[k];
  console.log(`median ${label}: before ${med('before', k).toFixed(0)} s, after ${med('after', k).toFixed(0)} s, ratio ${(med('after', k) / med('before', k)).toFixed(3)}`);
}
