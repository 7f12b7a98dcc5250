// Ingests a state's source file(s) as one refresh snapshot.
// Usage: npm run ingest -- [--format F] [--state XX] [--snapshot YYYY-MM-DD] [--partial] [--confirm-retire] [--json] <file>...
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { compose } from '../compose/index.js';
import type { RefreshSummary } from '../ingest/refresh/refresh.js';
import { MAX_RETIRE_SHARE } from '../ingest/refresh/refresh-links.js';
import { SOURCE_FORMATS } from '../ingest/sources/index.js';
import { adminCommands } from '../operator/admin.commands.js';
import { exitWithError, runOperatorCommand } from './operator.js';

const USAGE = `usage: npm run ingest -- [--format F] [--state XX] [--snapshot YYYY-MM-DD] [--partial] [--confirm-retire] [--json] <file>...

Formats (detected from the file when --format is left out):
${SOURCE_FORMATS.map((f) => `  ${f.format.padEnd(19)} ${f.state}  ${f.description}`).join('\n')}

All files of one run form one snapshot (e.g. FL's RE_rgn1..14.csv). A snapshot is full unless
--partial: a full one makes the licences it no longer lists inactive. --snapshot defaults to the
newest file's modification date. A full snapshot that would make more than ${100 * MAX_RETIRE_SHARE}% of the
source's active licences inactive stops before anything lands (a truncated or wrong file), unless
--confirm-retire.`;

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

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      state: { type: 'string' },
      snapshot: { type: 'string' },
      partial: { type: 'boolean', default: false },
      'confirm-retire': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const args = {
    files: positionals.map((f) => path.resolve(f)),
    format: values.format,
    state: values.state,
    snapshot: values.snapshot,
    partial: values.partial,
    confirm_retire: values['confirm-retire'],
  };
  const onProgress = progress();
  const summary = (await runOperatorCommand('ingest', args, config.dataDir, async () => {
    const root = compose(config);
    const refresh = await root.refresh().catch(async (err) => {
      await root.close();
      throw err;
    });
    return { run: adminCommands({ refresh, rejectsDir: path.join(config.dataDir, 'rejects'), onProgress }), close: root.close };
  })) as RefreshSummary;
  if (onProgress) process.stderr.write('\n');
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else print(summary);
}

main().catch(exitWithError);
