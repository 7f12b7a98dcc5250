import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { JURISDICTION_NAMES } from '../../domain/jurisdictions.js';
import { BadRequestError, ConflictError } from '../../errors.js';
import type { Row } from '../../graph/graph-port.js';
import { preparedBatches } from '../rows/prepared-rows.js';
import { Read } from './refresh-read.js';
import * as changeEvents from '../change-events.js';
import type { RefreshRepo } from './refresh-repo.js';
import { leased } from './refresh-lease.js';
import { writeLinks } from './refresh-links.js';
import { reject, stageEvents, STAGE_EVENTS, type Reject, type Run } from './refresh-run.js';
import type { RefreshProgress } from '../../domain/refreshes.js';
import { SOURCES } from '../../domain/sources.js';
import type { SourceFormat } from '../sources/source-types.js';

/**
 * A refresh: one snapshot of one source, from one or more files, applied as one unit (one
 * transaction, or on Neo4j versions that readers see once published: graph/neo4j/versions.ts).
 * Credentials are upserted; on a full snapshot, those the source no longer lists become inactive
 * and keep their last_verified. Supervision links are diffed against the source's open ones: a
 * new link opens a SUPERVISES edge (from the source's start date, else the snapshot date), a
 * missing or changed one closes at the snapshot date. The same snapshot twice changes nothing.
 */

export interface RefreshOptions {
  files: string[];
  format: SourceFormat;
  /** YYYY-MM-DD; default: the newest file's modification date. */
  snapshot?: string;
  /** A partial snapshot (one region, one licence class): absence means nothing. */
  partial?: boolean;
  rejectsDir: string;
  now?: () => Date;
  onProgress?: (p: { rows: number; bytes: number; totalBytes: number }) => void;
  batchSize?: number;
  /** Change events staged per part (default STAGE_EVENTS). */
  eventsPart?: number;
  /** The operator confirms a full snapshot that retires more than MAX_RETIRE_SHARE of the source's active licences. */
  confirmRetire?: boolean;
}

export interface RefreshSummary {
  source: string;
  state: string;
  format: string;
  files: string[];
  snapshot_date: string;
  full_snapshot: boolean;
  rows_read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  left_source: number;
  edges_opened: number;
  edges_closed: number;
  /** Rows that did not land. */
  rejected: number;
  /** Links of landed rows that were not applied (supervisor not on file, 2-cycle, bad date). */
  links_rejected: number;
  rejected_by_reason: Record<string, number>;
  rejects_file: string | null;
  elapsed_ms: number;
}


export async function refresh(repo: RefreshRepo, options: RefreshOptions): Promise<RefreshSummary> {
  const { format } = options;
  const source = SOURCES[format.sourceId];
  const snapshot = snapshotOf(options);
  const progress: RefreshProgress = { phase: 'reading', rows_read: 0, bytes_read: 0, total_bytes: options.files.reduce((n, f) => n + fs.statSync(f).size, 0) };
  return leased(repo.leases, { state: format.state, source: source.id }, progress, () =>
    refreshLeased(repo, {
      ...options,
      onProgress: (p) => {
        Object.assign(progress, { rows_read: p.rows, bytes_read: p.bytes, total_bytes: p.totalBytes });
        options.onProgress?.(p);
      },
    }, snapshot, (phase) => void (progress.phase = phase)),
  );
}

async function refreshLeased(repo: RefreshRepo, options: RefreshOptions, snapshot: string, phase: (p: RefreshProgress['phase']) => void): Promise<RefreshSummary> {
  const started = Date.now();
  const now = (options.now ?? repo.now)();
  const { format } = options;
  const source = SOURCES[format.sourceId];
  let rejects: Reject[] = [];
  const { changes } = repo;
  const landed = (runId: string) => repo.landedRun(source.id, runId);
  // Runs a crash left staged are settled first: the change log follows the graph.
  if (changes) await changes.recover(source.id, landed);

  const summary = await repo.writes.refreshRun(format.state, async (t) => {
    phase('reading');
    // Checked inside the run: runs queue behind each other, and history only moves forward.
    const last = await repo.lastSnapshot(t, source.id);
    if (last && snapshot < last) {
      throw new ConflictError(`snapshot ${snapshot} is older than the last refresh of ${source.id} (${last}): history only moves forward`);
    }
    const run: Run = {
      repo,
      t,
      source,
      state: format.state,
      snapshot,
      full: !options.partial,
      counts: { rows: 0, inserted: 0, updated: 0, unchanged: 0, left: 0, opened: 0, closed: 0 },
      rejects: [],
      events: changes ? [] : undefined,
      log: { id: randomUUID(), source: source.id, state: format.state, snapshot_date: snapshot, staged: 0, part: options.eventsPart ?? STAGE_EVENTS },
      ctx: { state: format.state, snapshot_date: snapshot, detected_at: now.toISOString(), source: source.id },
      firstLoad: false,
    };
    rejects = run.rejects;
    await configureSource(run, format);
    await repo.writes.removeDemo(t, [run.state]);
    // What the files said and the links written are let go here, before the run lands.
    await writeLinks(run, await writeCredentials(run, options, now), options.confirmRetire ?? false, () => phase('relationships'));

    phase('landing');
    const result = summaryOf(run, options);
    const { counts } = run;
    if (run.firstLoad && counts.inserted) run.events?.push(changeEvents.stateLoaded(run.ctx, { credentials: counts.inserted, relationships: counts.opened }));
    // Staged before the graph unit lands; committed once it has (the run's id is on its source).
    await stageEvents(run, true);
    await repo.finish(t, run.state, source.id, snapshot, { ...result, run_id: run.log.id, finished_at: now.toISOString() }, counts.rows, now.toISOString());
    return result;
  }, () => phase('waiting')).finally(async () => {
    // Commits the attempt that landed and discards the others; what a failure here leaves
    // staged is settled by the next run or start.
    if (changes) await changes.recover(source.id, landed).catch(() => undefined);
  });

  summary.rejects_file = await writeRejects(rejects, options, `${source.id}-${snapshot}-${now.toISOString().replace(/[:.]/g, '')}.csv`);
  summary.elapsed_ms = Date.now() - started;
  return summary;
}

/** The snapshot date asked (default: the newest file's modification date), the files checked. */
function snapshotOf(options: RefreshOptions): string {
  for (const f of options.files) if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new BadRequestError(`no such file: ${f}`);
  const snapshot =
    options.snapshot ??
    new Date(Math.max(...options.files.map((f) => fs.statSync(f).mtimeMs))).toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(snapshot)) throw new BadRequestError(`snapshot must be YYYY-MM-DD, not ${snapshot}`);
  return snapshot;
}

/** The jurisdiction and its source as this source describes them. */
async function configureSource(run: Run, format: SourceFormat) {
  const { source, state } = run;
  await run.repo.writes.writeJurisdictions(run.t, [
    {
      state,
      name: JURISDICTION_NAMES[state],
      status: source.status,
      refresh_frequency: source.refresh_frequency,
      relationship_coverage: source.relationship_coverage,
      relationship_coverage_notes: source.relationship_coverage_notes,
      is_demo: false,
      source_id: source.id,
      source_name: source.name,
      source_url: source.url,
      source_format: format.format,
    },
  ]);
}

/**
 * Reads the files and writes their credentials as it goes: new ones created with their licensees,
 * changed ones updated (moved to their new licensee), unchanged ones stamped with a new snapshot.
 */
async function writeCredentials(run: Run, options: RefreshOptions, now: Date): Promise<Read> {
  const { repo, t, source, state, snapshot, counts } = run;
  const batchSize = options.batchSize ?? 2000;
  const totalBytes = options.files.reduce((n, f) => n + fs.statSync(f).size, 0);
  // Every credential of the state, whatever source put it there: a row updates what is on file.
  const read = await new Read().take(repo.writes.existing(t, state));
  const { onFile } = read;
  run.firstLoad = onFile.size === 0;
  const events = run.firstLoad ? undefined : run.events;
  // After removeDemo every licensee holds a credential, and a licensee holds credentials of one
  // state only (its id derives from the state): so these are all the state's licensees on file.
  const licenseesOnFile = new Set<string>();
  for (const r of onFile.values()) if (r.licensee_id !== null) licenseesOnFile.add(r.licensee_id);
  let created: Row[] = [];
  // Licensees of created rows, one row each: those on file are merged with their rows
  // (`licensees`, the last one's values win as with a MERGE), the others created with them.
  let licensees = new Map<string, Row>();
  let newLicensees = new Map<string, Row>();
  let updated: Row[] = [];
  let moved: Row[] = [];
  let context: Row[] = [];
  let touched: Row[] = [];
  // One write in flight while the next batch is parsed: the engine works on its own threads.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const batch = { created, licensees: [...licensees.values()], newLicensees: [...newLicensees.values()], updated, moved, context, touched };
    for (const id of newLicensees.keys()) licenseesOnFile.add(id);
    await writing;
    // What changed is described from the values before the write: read only for changed rows.
    if (events && updated.length) {
      const before = await repo.writes.records(t, updated.map((r) => r.id as string));
      for (const r of updated) {
        const doc = before.get(r.id as string);
        if (doc) events.push(...changeEvents.updated(run.ctx, doc, r));
      }
    }
    // The events so far name rows on file or carry their licence numbers: they can be staged.
    await stageEvents(run);
    created = [];
    licensees = new Map();
    newLicensees = new Map();
    updated = [];
    moved = [];
    context = [];
    touched = [];
    writing = repo.writeCredentials(t, batch);
    // Held until the next await of `writing`; without a handler a failure would crash the process.
    writing.catch(() => undefined);
  };

  for await (const batch of preparedBatches({ files: options.files, format: options.format.format, source: source.id, state, snapshot, now: now.toISOString() })) {
    for (const row of batch.rows) {
      if (!row.derived) counts.rows += 1;
      if (row.listed) {
        const before = onFile.get(row.listed);
        if (before) before.listed = true;
      }
      if (row.reject || !row.record) {
        reject(run, { file: row.file, line: row.line, ...row.reject!, raw: row.raw });
        continue;
      }
      const record = row.record;
      const before = onFile.get(record.id as string);
      if (read.seen(record.id as string)) {
        reject(run, { file: row.file, line: row.line, reason: 'duplicate licence', detail: `${state} ${record.license_number} appears more than once`, raw: row.raw });
        continue;
      }
      // The run holds one instance of each id (read.id): the entry on file's, else the record's.
      const id = before?.id ?? (record.id as string);
      if (before) before.seen = true;
      else read.added.set(id, id);
      for (const r of row.linkRejects) reject(run, { file: row.file, line: row.line, ...r, raw: row.raw, link: true });
      for (const link of row.links) read.want(link, id, row.file, row.line);
      if (before && before.row_hash === record.row_hash && !before.left_source_on) {
        counts.unchanged += 1;
        // Same content: nothing to write for the same snapshot, only when it was seen for a new one.
        if (before.snapshot_date !== snapshot) touched.push(record);
      } else {
        if (!before) {
          counts.inserted += 1;
          events?.push(changeEvents.added(run.ctx, record));
          created.push(record);
          const licensee = { id: record.licensee_id, entity_type: record.entity_type, display_name: record.display_name, licensee_key: record.licensee_key };
          (licenseesOnFile.has(licensee.id as string) ? licensees : newLicensees).set(licensee.id as string, licensee);
        } else {
          counts.updated += 1;
          if (before.left_source_on) events?.push(changeEvents.returned(run.ctx, id, before.left_source_on));
          updated.push(record);
          // A moved credential's new licensee is merged now (see moveHolders).
          licenseesOnFile.add(record.licensee_id as string);
          newLicensees.delete(record.licensee_id as string);
          if (before.licensee_id !== record.licensee_id) moved.push(record);
        }
        if (row.context) context.push(row.context);
      }
      // Large batches: engines with a bulk path load them from a file, the others in UNWIND
      // batches of batchSize.
      if (created.length + updated.length + touched.length >= batchSize * 10) await flush();
    }
    options.onProgress?.({ rows: counts.rows, bytes: batch.bytes, totalBytes });
  }
  await flush();
  await writing;
  options.onProgress?.({ rows: counts.rows, bytes: totalBytes, totalBytes });
  return read;
}

function summaryOf(run: Run, options: RefreshOptions): RefreshSummary {
  const { counts, rejects } = run;
  const byReason: Record<string, number> = {};
  for (const r of rejects) byReason[r.reason] = (byReason[r.reason] ?? 0) + 1;
  const linkRejects = rejects.filter((r) => r.link).length;
  return {
    source: run.source.id,
    state: run.state,
    format: options.format.format,
    files: options.files.map((f) => path.resolve(f)),
    snapshot_date: run.snapshot,
    full_snapshot: run.full,
    rows_read: counts.rows,
    inserted: counts.inserted,
    updated: counts.updated,
    unchanged: counts.unchanged,
    left_source: counts.left,
    edges_opened: counts.opened,
    edges_closed: counts.closed,
    rejected: rejects.length - linkRejects,
    links_rejected: linkRejects,
    rejected_by_reason: byReason,
    rejects_file: null,
    elapsed_ms: 0,
  };
}

/** The rejected rows, in file and line order, as a CSV under `dir`; null when there are none. */
async function writeRejects(rejects: Reject[], options: RefreshOptions, name: string): Promise<string | null> {
  if (!rejects.length) return null;
  rejects.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  await readRawRows(rejects, options);
  fs.mkdirSync(options.rejectsDir, { recursive: true });
  const file = path.join(options.rejectsDir, name);
  fs.writeFileSync(
    file,
    stringify(
      rejects.map((r) => [r.file, r.line, r.reason, r.detail, r.raw]),
      { header: true, columns: ['file', 'line', 'reason', 'detail', 'raw_row'] },
    ),
  );
  return file;
}

/** Fills in the raw rows of the rejects that came without (links rejected after the read), reading their files again. */
async function readRawRows(rejects: Reject[], options: RefreshOptions) {
  const wanted = new Map<string, Reject[]>(); // file|line -> its rejects
  for (const r of rejects) if (r.raw === undefined) wanted.set(`${r.file}|${r.line}`, [...(wanted.get(`${r.file}|${r.line}`) ?? []), r]);
  for (const file of options.files) {
    const name = path.basename(file);
    if (!rejects.some((r) => r.raw === undefined && r.file === name)) continue;
    for await (const rows of options.format.rows(file)) {
      for (const row of rows) for (const r of wanted.get(`${name}|${row.line}`) ?? []) r.raw = row.raw;
    }
  }
}
