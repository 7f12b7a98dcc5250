// The canonical import's top: it chooses between the first load (first-load/, bulk files) and
// the upserts over what is on file (import/), so that neither of those folders imports the other.
import type { BulkSink } from '../graph/graph-port.js';
import type { QueryFiles } from '../graph/query-files.js';
import { bulkImport, bulkLoad } from './first-load/bulk-import.js';
import { startImport, upsertFolder } from './import/canonical-import.js';
import { importEvents } from './import/import-events.js';
import type { ImportRepo } from './import-repo.js';
import type { ImportSummary, RejectedRow } from './rows/import-records.js';

export type { ImportSummary, RejectedRow };

export interface ImportOptions {
  batchSize?: number;
  /** The import's time; default the repository's clock. */
  now?: () => Date;
}

/** Loads a folder in the canonical import format; see docs/importing.md, Canonical import format. */
export async function importFolder(repo: ImportRepo, folder: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const now = (options.now ?? repo.now)();
  const started = await startImport(folder, now);
  const { rejected, summary, jurisdictions, done } = started;
  const events = importEvents(repo, now);
  await events.recover();
  // The first import into a graph without credentials goes through the bulk path where the engine has one.
  const loader = repo.bulkLoader;
  if (loader && (await repo.empty()) && (await events.bulk((unit) => bulkImport(repo, loader, { folder, now, jurisdictions, rejected, summary, events: unit })))) return done();
  await upsertFolder(repo, folder, started, events, options.batchSize ?? 2000);
  return done();
}

/**
 * A folder's first load into a store that does not exist yet (Neo4j's offline importer, see
 * graph/neo4j/import-files): the bulk path's files go to `sink`, its statements, the
 * jurisdictions' first, are the sink's to run once the store is up. Returns the summary and the
 * jurisdiction codes the credentials may name.
 */
export async function importFolderToSink(files: QueryFiles, sink: BulkSink, folder: string, now: () => Date) {
  const { rejected, summary, jurisdictions, done } = await startImport(folder, now());
  if (jurisdictions.length) await sink.run(files.get('import/upsert-jurisdictions'), { rows: jurisdictions });
  summary.jurisdictions = jurisdictions.length;
  const known = new Set(jurisdictions.map((j) => j.state as string));
  const statements = { linkBrokerageContext: files.get('import/link-brokerage-context'), writeCounts: files.get('import/write-counts'), upsertRelationships: files.get('import/upsert-relationships') };
  await bulkLoad(sink, statements, { folder, now: now(), jurisdictions, rejected, summary }, known);
  return { summary: done(), jurisdictions: [...known] };
}
