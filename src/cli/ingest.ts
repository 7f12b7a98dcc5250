// Ingests a state's source file(s) as one refresh snapshot, or with --all every state folder of a
// root in turn (a national refresh).
// Usage: npm run ingest -- [--format F] [--state XX] [--snapshot YYYY-MM-DD] [--partial] [--confirm-retire] [--timings] [--json] <file>...
//        npm run ingest -- --all [--snapshot YYYY-MM-DD] [--partial] [--confirm-retire] [--timings] [--json] <folder>
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { compose } from '../compose/index.js';
import type { RefreshSummary } from '../ingest/refresh/refresh.js';
import { MAX_RETIRE_SHARE } from '../ingest/refresh/refresh-links.js';
import { refreshAll, stateFolders, type StateOutcome } from '../ingest/refresh/refresh-all.js';
import { SOURCE_FORMATS } from '../ingest/sources/index.js';
import { adminCommands } from '../operator/admin.commands.js';
import { exitWithError, openOperator } from './operator.js';

const USAGE = `usage: npm run ingest -- [--format F] [--state XX] [--snapshot YYYY-MM-DD] [--partial] [--confirm-retire] [--timings] [--json] <file>...
       npm run ingest -- --all [--snapshot YYYY-MM-DD] [--partial] [--confirm-retire] [--timings] [--json] <folder>

Formats (detected from the file when --format is left out):
${SOURCE_FORMATS.map((f) => `  ${f.format.padEnd(19)} ${f.state}  ${f.description}`).join('\n')}

All files of one run form one snapshot (e.g. FL's RE_rgn1..14.csv). A snapshot is full unless
--partial: a full one makes the licences it no longer lists inactive. --snapshot defaults to the
newest file's modification date. A full snapshot that would make more than ${100 * MAX_RETIRE_SHARE}% of the
source's active licences inactive stops before anything lands (a truncated or wrong file), unless
--confirm-retire.

--all refreshes every state folder of <folder> in turn (TX/, FL/, CA/, CT/, NY/: a folder per
state, named by its code, holding that state's files of one snapshot), each as one run of its own.
A state that fails is reported and the others still run; the exit code is 0 only when every
state landed. The other options apply to every state.

--timings adds where the graph's time went: each statement the run sent, by its query file, with
how many times it ran and its seconds in all (in --json, as "statements"). Taken only when the
command opens the graph itself, not when it runs through the server that holds the data dir.`;

/** Statements' times by name, as the graph ran them (--timings). */
function statementTimes() {
  const by = new Map<string, { statements: number; ms: number }>();
  return {
    heard(name: string, ms: number) {
      const t = by.get(name) ?? { statements: 0, ms: 0 };
      by.set(name, { statements: t.statements + 1, ms: t.ms + ms });
    },
    list: () => [...by].map(([name, t]) => ({ name, statements: t.statements, seconds: Math.round(t.ms) / 1000 })).sort((a, b) => b.seconds - a.seconds),
  };
}

function printTimes(list: ReturnType<ReturnType<typeof statementTimes>['list']>) {
  if (!list.length) {
    console.log('  statement times: none taken (the command ran through the server that holds the data dir)');
    return;
  }
  console.log('  statement times (seconds, statements, query file):');
  for (const t of list) console.log(`  ${t.seconds.toFixed(1).padStart(8)} ${String(t.statements).padStart(8)}  ${t.name}`);
}

function progress() {
  if (!process.stderr.isTTY) return undefined;
  const started = Date.now();
  return ({ rows, bytes, totalBytes }: { rows: number; bytes: number; totalBytes: number }) => {
    const secs = (Date.now() - started) / 1000;
    const rate = rows / Math.max(secs, 0.001);
    const eta = bytes > 0 ? (secs * (totalBytes - bytes)) / bytes : NaN;
    process.stderr.write(
      `\r  ${rows.toLocaleString('en-US')} rows  ${Math.round(rate).toLocaleString('en-US')} rows/s  ${((100 * bytes) / Math.max(totalBytes, 1)).toFixed(0)}%  ETA ${Number.isFinite(eta) ? `${Math.ceil(eta)} s` : '-'}   `,
    );
  };
}

function print(s: RefreshSummary) {
  console.log(`${s.source} (${s.state}, ${s.format}) snapshot ${s.snapshot_date}${s.full_snapshot ? '' : ' (partial)'}: ${s.rows_read} rows in ${(s.elapsed_ms / 1000).toFixed(1)} s`);
  console.log(`  inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, left the source ${s.left_source}`);
  console.log(`  relationships opened ${s.edges_opened}, closed ${s.edges_closed}`);
  console.log(`  rejected rows ${s.rejected}, rejected links ${s.links_rejected}${s.rejected + s.links_rejected ? `: ${Object.entries(s.rejected_by_reason).map(([r, n]) => `${r} ${n}`).join(', ')}` : ''}`);
  if (s.rejects_file) console.log(`  rejects (line, reason, raw row): ${s.rejects_file}`);
}

/** A state's outcome on one line. */
function outcomeLine(o: StateOutcome): string {
  if (!o.landed) return `${o.state}  failed: ${o.error}`;
  const s = o.summary;
  return (
    `${o.state}  landed  ${s.rows_read.toLocaleString('en-US')} rows in ${(s.elapsed_ms / 1000).toFixed(1)} s: inserted ${s.inserted}, updated ${s.updated}, ` +
    `unchanged ${s.unchanged}, left the source ${s.left_source}, relationships opened ${s.edges_opened}, closed ${s.edges_closed}, rejected ${s.rejected + s.links_rejected}`
  );
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      format: { type: 'string' },
      state: { type: 'string' },
      snapshot: { type: 'string' },
      partial: { type: 'boolean', default: false },
      'confirm-retire': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      timings: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const misuse = values.all && (positionals.length !== 1 || values.format || values.state);
  if (values.help || positionals.length === 0 || misuse) {
    if (misuse) console.error('--all takes one folder, and no --format or --state (each folder names its state; formats are detected)\n');
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const options = { snapshot: values.snapshot, partial: values.partial, confirm_retire: values['confirm-retire'] };
  // Parse the folder before opening the stores: a wrong path fails at once.
  const folders = values.all ? stateFolders(path.resolve(positionals[0])) : undefined;
  let onProgress: ReturnType<typeof progress>;
  const times = values.timings ? statementTimes() : undefined;
  const operator = await openOperator(config.dataDir, async () => {
    const root = compose(config, { statements: times?.heard });
    const refresh = await root.refresh().catch(async (err) => {
      await root.close();
      throw err;
    });
    return { run: adminCommands({ refresh, rejectsDir: path.join(config.dataDir, 'rejects'), onProgress: (p) => onProgress?.(p) }), close: root.close };
  });
  try {
    if (!folders) {
      onProgress = progress();
      const summary = (await operator.run('ingest', { ...options, files: positionals.map((f) => path.resolve(f)), format: values.format, state: values.state })) as RefreshSummary;
      if (onProgress) process.stderr.write('\n');
      if (values.json) console.log(JSON.stringify(times ? { ...summary, statements: times.list() } : summary, null, 2));
      else {
        print(summary);
        if (times) printTimes(times.list());
      }
      return;
    }
    const started = Date.now();
    const outcomes = await refreshAll(
      folders,
      async (f) => (await operator.run('ingest', { ...options, files: f.files, state: f.state })) as RefreshSummary,
      ({ at, of, folder, outcome }) => {
        if (!outcome) {
          process.stderr.write(`[${at}/${of}] ${folder.state}: ${folder.files.length} file(s) in ${folder.folder}\n`);
          onProgress = progress();
        } else process.stderr.write(`${onProgress ? '\n' : ''}[${at}/${of}] ${outcomeLine(outcome)}\n`);
      },
    );
    const landed = outcomes.filter((o) => o.landed).length;
    if (values.json) console.log(JSON.stringify({ landed, states: outcomes, ...(times && { statements: times.list() }) }, null, 2));
    else {
      console.log(`national refresh: ${landed} of ${outcomes.length} states landed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (const o of outcomes) console.log(`  ${outcomeLine(o)}`);
      if (times) printTimes(times.list());
    }
    if (landed < outcomes.length) process.exitCode = 1;
  } finally {
    await operator.close();
  }
}

main().catch(exitWithError);
