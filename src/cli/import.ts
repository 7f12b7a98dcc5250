// Loads a folder in the canonical import format (docs/importing.md: Canonical import format) into the graph.
// Usage: npm run import -- <folder> [--json]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { compose } from '../compose/index.js';
import type { ImportSummary } from '../ingest/load.js';
import { adminCommands } from '../operator/admin.commands.js';
import { exitWithError, runOperatorCommand } from './operator.js';

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

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) {
    console.error('usage: npm run import -- <folder> [--json]');
    process.exit(2);
  }
  const config = loadConfig();
  const summary = await runOperatorCommand('import', { folder: path.resolve(positionals[0]) }, config.dataDir, async () => {
    const root = compose(config);
    const imports = await root.imports().catch(async (err) => {
      await root.close();
      throw err;
    });
    return { run: adminCommands({ imports }), close: root.close };
  });
  print(summary as ImportSummary, values.json);
}

main().catch(exitWithError);
