// Loads a folder in the canonical import format (README: Canonical import format) into the graph.
// Usage: npm run import -- <folder> [--json]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { importRepo, loadQueryFiles, openGraph } from '../deps.js';
import { DataDirLockedError } from '../errors.js';
import { importFolder, type ImportSummary } from '../ingest/canonical-import.js';
import { readServerHandle } from '../server-handle.js';

function print(summary: ImportSummary, json: boolean) {
  if (json) {
    console.log(JSON.stringify(summary, null, 2));
    return;
  }
  console.log(`imported ${summary.folder} in ${(summary.elapsed_ms / 1000).toFixed(1)} s`);
  console.log(`  jurisdictions: ${summary.jurisdictions}`);
  console.log(`  credentials:   ${summary.credentials}`);
  console.log(`  relationships: ${summary.relationships}`);
  if (summary.demo_records_removed_for.length) console.log(`  demo records removed for: ${summary.demo_records_removed_for.join(', ')}`);
  console.log(`  rejected rows: ${summary.rejected.length}`);
  for (const r of summary.rejected.slice(0, 50)) console.log(`    ${r.file}:${r.line}: ${r.reason}`);
  if (summary.rejected.length > 50) console.log(`    ... ${summary.rejected.length - 50} more (use --json for all)`);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) {
    console.error('usage: npm run import -- <folder> [--json]');
    return 2;
  }
  const folder = path.resolve(positionals[0]);
  const config = loadConfig();
  const files = loadQueryFiles();
  let graph;
  try {
    graph = await openGraph(config, files);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    // The server holds the data dir: hand the import to it.
    const server = readServerHandle(config.dataDir);
    if (!server) {
      console.error(`cannot import: ${err.message}`);
      return 3;
    }
    console.error(`the server (pid ${server.pid}) holds ${config.dataDir}; importing through it`);
    const res = await fetch(`${server.url}/internal/imports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': server.token },
      body: JSON.stringify({ folder }),
    });
    const body = await res.json();
    if (!res.ok) {
      console.error(`import failed: ${typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail)}`);
      return 1;
    }
    print(body as ImportSummary, values.json);
    return 0;
  }
  try {
    print(await importFolder(importRepo(graph, files), folder), values.json);
    return 0;
  } finally {
    await graph.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`import failed: ${(err as Error).message}`);
    process.exit(1);
  },
);
