import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { JURISDICTION_NAMES } from '../../domain/jurisdictions.js';
import { BadRequestError, ConflictError } from '../../errors.js';
import type { GraphTx, Row } from '../../graph/graph-port.js';
import { preparedBatches } from '../rows/prepared-rows.js';
import { Read } from './refresh-read.js';
import type { ChangeEvent } from '../../domain/changes.js';
import * as changeEvents from '../change-events.js';
import type { RefreshRepo } from './refresh-repo.js';
import { leased } from './refresh-lease.js';
import type { RefreshProgress } from '../../domain/refreshes.js';
import { SOURCES, type SourceConfig } from '../../domain/sources.js';
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

/**
 * A full snapshot that would retire more than this share of the source's active licences (and
 * more than RETIRE_FLOOR of them: a tiny source's one leaver is not a truncated file) stops before
 * anything lands, unless confirmed: a truncated or wrong file looks like that.
 */
export const MAX_RETIRE_SHARE = 0.2;
const RETIRE_FLOOR = 10;

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

interface Reject {
  link?: boolean;
  file: string;
  line: number;
  reason: string;
  detail: string;
  /** The row as read; absent for a link rejected once the files were read (writeRejects reads it again). */
  raw?: string;
}

const DESIGNATIONS = new Set(['designated_broker', 'designated_officer']);
const LEFT_STATUS = 'Not in source file';

/** One attempt of a run (an engine may retry the whole run): its unit of work and what it counts. */
interface Run {
  repo: RefreshRepo;
  t: GraphTx;
  source: SourceConfig;
  state: string;
  snapshot: string;
  full: boolean;
  counts: { rows: number; inserted: number; updated: number; unchanged: number; left: number; opened: number; closed: number };
  rejects: Reject[];
  /** The run's change events not staged yet, when a change log keeps them. */
  events?: ChangeEvent[];
  /** The run as its change log records it, and how many of its events are staged. */
  log: { id: string; source: string; state: string; snapshot_date: string; staged: number; part: number };
  ctx: changeEvents.RunContext;
  /** The state had no credentials before: one summary event instead of one per change. */
  firstLoad: boolean;
}

const reject = (run: Run, r: Omit<Reject, 'reason'> & { reason?: string; link?: boolean }) => run.rejects.push({ reason: r.reason ?? r.detail, ...r });

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

/** Change events are staged in parts of this many: a run holds at most about a part of them. */
const STAGE_EVENTS = 5000;

/** Stages the events held once they make a part (`last`: whatever is held, and the run even without events). */
async function stageEvents(run: Run, last = false) {
  const { events, log } = run;
  const { changes } = run.repo;
  if (!changes || !events || (!last && events.length < log.part) || (last && log.staged > 0 && !events.length)) return;
  // Emptied in place: writeCredentials holds the same array.
  const part = events.splice(0);
  changeEvents.withNumbers(part, await run.repo.numbers(run.t, changeEvents.credentialIds(part)));
  await changes.stage(log, part, log.staged);
  log.staged += part.length;
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

/** Retires what a full snapshot no longer lists, then writes the link changes (with their events); how many links it wrote. */
async function writeLinks(run: Run, read: Read, confirmRetire: boolean, started: () => void): Promise<void> {
  const { repo, t } = run;
  started();
  if (run.full) await markLeft(run, read, confirmRetire);
  await dropLinksThatCannotHold(run, read);
  const links = await diffLinks(run, read);
  await repo.writes.reopenLinks(t, links.toReopen);
  await repo.writes.createLinks(t, links.toOpen);
  await repo.writes.closeLinks(t, links.toClose);
  await repo.writes.deleteLinks(t, links.toDelete);
  if (run.events && !run.firstLoad) {
    for (const link of [...links.toOpen, ...links.toReopen]) {
      run.events.push(changeEvents.supervision(run.ctx, 'supervision_started', link));
      await stageEvents(run);
    }
    for (const link of [...links.toClose, ...links.toDelete]) {
      run.events.push(changeEvents.supervision(run.ctx, 'supervision_ended', link));
      await stageEvents(run);
    }
  }
}

/** Credentials of this source a full snapshot no longer lists turn inactive. */
async function markLeft(run: Run, { onFile }: Read, confirmed: boolean) {
  const { repo, t, source, snapshot, state } = run;
  const gone: string[] = [];
  let active = 0;
  for (const before of onFile.values()) {
    if (before.source !== source.id) continue;
    if (!before.left_source_on) active += 1;
    if (!before.listed && !before.left_source_on) gone.push(before.id);
  }
  const retiring = gone.length;
  if (!confirmed && retiring > RETIRE_FLOOR && retiring > MAX_RETIRE_SHARE * active) {
    const n = (x: number) => x.toLocaleString('en-US');
    throw new ConflictError(
      `the snapshot of ${snapshot} would retire ${n(retiring)} of ${state}'s ${n(active)} active ${source.id} licences ` +
        `(${((100 * retiring) / active).toFixed(1)}%; a refresh retires at most ${100 * MAX_RETIRE_SHARE}% unconfirmed): ` +
        `is the file truncated, or another source's? Nothing was written. If the source really dropped them, run it again confirmed (--confirm-retire).`,
    );
  }
  // In parts, with their events: their documents are held a part at a time.
  for (let i = 0; i < gone.length; i += run.log.part) {
    const ids = gone.slice(i, i + run.log.part);
    const docs = await repo.writes.records(t, ids);
    const left = ids.map((id) => {
      const doc = docs.get(id)!;
      const note = `Left the ${source.id} source file: not in the snapshot of ${snapshot}; last seen in the snapshot of ${doc.snapshot_date}`;
      const notes = [...(doc.data_source_notes ?? []), note];
      run.events?.push(changeEvents.leftSource(run.ctx, id, doc, LEFT_STATUS));
      return { ...doc, status: LEFT_STATUS, status_normalized: 'inactive', data_source_notes: notes, left_source_on: snapshot };
    });
    await repo.writes.markLeft(t, left);
    await stageEvents(run);
  }
  run.counts.left = gone.length;
}

/** A credential of this source a full snapshot no longer lists (inactive now, or already). */
const leftTheSource = (run: Run, read: Read, id: string) => {
  const before = read.onFile.get(id);
  return run.full && before !== undefined && before.source === run.source.id && !before.listed;
};

/** Drops (and reports) the links asked for that cannot hold: the reverse of a designation, a supervisor not on file. */
async function dropLinksThatCannotHold(run: Run, read: Read) {
  const { desired } = read;
  // A licence and its designated broker naming each other would be a 2-cycle; the designation is
  // kept so the chain reads upward (company -> designated broker).
  for (const link of desired) {
    const reverse = desired.get(link.affiliate_id, link.supervisor_id, 'designated_broker') ?? desired.get(link.affiliate_id, link.supervisor_id, 'designated_officer');
    if (reverse && !DESIGNATIONS.has(link.relationship_type)) {
      desired.delete(link);
      reject(run, { file: link.file, line: link.line, reason: 'reverse of a designation', detail: `${link.supervisor_license_number} is this licence's designated broker/officer; kept as the designation only`, link: true });
    }
  }
  const outside = [...desired.supervisors()].filter((id) => !read.seen(id));
  const known = await run.repo.known(run.t, outside);
  for (const link of desired) {
    const id = link.supervisor_id;
    const supervisorGone = !read.seen(id) && (!known.has(id) || (known.get(id) && !read.listed(id)) || leftTheSource(run, read, id));
    if (supervisorGone) {
      desired.delete(link);
      reject(run, { file: link.file, line: link.line, reason: 'supervisor not on file', detail: `related licence ${run.state} ${link.supervisor_license_number} is not on file`, link: true });
    }
  }
}

/**
 * The links asked for against the source's links on file: new ones to open (or, ended with the
 * same start, to reopen), and open ones the snapshot no longer holds to close (or to delete,
 * when they would end before they began). The links on file are compared as they come, not held.
 */
async function diffLinks(run: Run, read: Read) {
  const { source, snapshot, full, counts } = run;
  const { desired } = read;
  const toOpen: Row[] = [];
  const toReopen: Row[] = [];
  const toClose: Row[] = [];
  const toDelete: Row[] = [];
  const close = (current: Row, on: string) => {
    const target = { ...current, effective_to: on };
    if ((current.effective_from as string) >= on) toDelete.push(target);
    else toClose.push(target);
    counts.closed += 1;
  };
  // Open links on file that no link asked for matches: they end, on a date the new links give.
  const unmatched: Row[] = [];
  for await (const r of run.repo.writes.links(run.t, run.state, source.id)) {
    const link = desired.get(r.supervisor_id as string, r.affiliate_id as string, r.relationship_type as string);
    if (r.effective_to !== null) {
      // An ended link back with the start it had is reopened rather than repeated.
      if (link && link.found === null && r.effective_from === (link.effective_from ?? snapshot)) link.found = 'ended';
    } else if (!link) unmatched.push(r);
    else if (link.affiliate_role === r.affiliate_role) link.found = 'kept';
    else {
      // A changed role is a new relationship: the old one keeps its role and ends now.
      close(r, snapshot);
      link.found = 'role changed';
    }
  }
  // Where the source dates a new link of an affiliate, the link it replaces ends that day.
  const startedAt = new Map<string, string>(); // affiliate|relationship_type -> new link's start
  for (const link of desired) {
    if (link.found === 'kept') continue;
    counts.opened += 1;
    const row = {
      supervisor_id: link.supervisor_id,
      affiliate_id: link.affiliate_id,
      affiliate_role: link.affiliate_role,
      relationship_type: link.relationship_type,
      effective_from: link.found === 'role changed' ? snapshot : (link.effective_from ?? snapshot),
      source: source.id,
    };
    if (link.effective_from) startedAt.set(`${link.affiliate_id}|${link.relationship_type}`, link.effective_from);
    (link.found === 'ended' ? toReopen : toOpen).push(row);
  }
  for (const current of unmatched) {
    const affiliate = current.affiliate_id as string;
    // Only a full snapshot, or a partial one that holds the affiliate, says a link has gone;
    // a row the run rejected says nothing about its links.
    if (!read.seen(affiliate) && (!full || read.listed(affiliate))) continue;
    const replacedOn = startedAt.get(`${affiliate}|${current.relationship_type}`);
    const on = replacedOn && replacedOn > (current.effective_from as string) && replacedOn < snapshot ? replacedOn : snapshot;
    close(current, on);
  }
  return { toOpen, toReopen, toClose, toDelete };
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
