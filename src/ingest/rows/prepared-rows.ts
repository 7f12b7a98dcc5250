import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { isRealDate } from '../../domain/dates.js';
import { credentialId, fold } from '../../domain/identity.js';
import type { Row } from '../../graph/graph-port.js';
import { brokerageContext, credentialRecord } from './import-records.js';
import { CredentialRow, describeIssues } from './canonical-rows.js';
import { SOURCE_FORMATS } from '../sources/index.js';
import type { SourceLink, SourceRow } from '../sources/source-types.js';

/**
 * Source rows made ready for a refresh: read, mapped, validated and turned into graph records,
 * which needs no graph state. A worker thread does it, so that parsing runs on one core while the
 * refresh writes on the other (docs/decisions/0008).
 */

export interface PrepareJob {
  files: string[];
  /** A format name of SOURCE_FORMATS (functions cannot cross to the worker). */
  format: string;
  source: string;
  state: string;
  snapshot: string;
  /** ISO timestamp of the run. */
  now: string;
}

export interface PreparedLink extends SourceLink {
  supervisor_id: string;
  affiliate_id: string;
}

export interface PreparedRow {
  file: string;
  line: number;
  raw: string;
  /** The credential id of the licence number the row publishes, valid row or not. */
  listed: string | null;
  /** Why the row cannot land. */
  reject?: { reason: string; detail: string };
  record?: Row;
  /** The business-name brokerage link, for sources that name one. */
  context?: Row;
  links: PreparedLink[];
  /** Links of the row that cannot be applied. */
  linkRejects: { reason: string; detail: string }[];
  /** A supervisor's credential published on the row that names it, not a row of the file. */
  derived?: true;
}

export interface PreparedBatch {
  rows: PreparedRow[];
  /** Bytes read so far, over all files. */
  bytes: number;
}

/** Supervisors' credentials published on the rows naming them, by id: the name of the first row, or why it could not land. */
type Published = Map<string, { name: string; file: string; line: number } | { reject: { reason: string; detail: string } }>;

/**
 * One source row made ready, added to `into`: what can be decided from the row and the rows before
 * it. Preceded by the credentials of the supervisors it is the first to publish (SourceLink.supervisor).
 */
function prepareRow(job: PrepareJob, now: Date, file: string, row: SourceRow, published: Published, into: PreparedRow[]): void {
  const number = row.credential?.license_number?.trim();
  const out: PreparedRow = { file, line: row.line, raw: row.raw, listed: number ? credentialId(job.state, number) : null, links: [], linkRejects: [] };
  if (row.error || !row.credential) {
    out.reject = { reason: row.reason ?? (row.error?.startsWith('malformed') ? 'malformed line' : 'unreadable value'), detail: row.error ?? 'no record' };
    into.push(out);
    return;
  }
  const parsed = parseCredential(job, row.credential);
  if (!parsed.success) {
    out.reject = { reason: `invalid ${parsed.error.issues[0]?.path.join('.') || 'row'}`, detail: describeIssues(parsed.error) };
    into.push(out);
    return;
  }
  const record = credentialRecord(parsed.data, now);
  const id = record.id as string;
  out.record = record;
  if (parsed.data.brokerage_name) out.context = brokerageContext(id, job.state, parsed.data.brokerage_name, job.source);
  for (const link of row.links ?? []) {
    const supervisorId = credentialId(job.state, link.supervisor_license_number);
    if (supervisorId === id) out.linkRejects.push({ reason: 'self supervision', detail: 'a licence cannot supervise itself' });
    else if (link.effective_from !== null && !isRealDate(link.effective_from)) {
      out.linkRejects.push({ reason: 'invalid link date', detail: `related licence start date ${link.effective_from} does not exist` });
    } else if (!link.supervisor || publishedSupervisor(job, now, out, link, supervisorId, published, into)) {
      // Posted to the refresh with the row: the supervisor's cells have landed as their own row.
      if (link.supervisor) delete link.supervisor;
      out.links.push(Object.assign(link, { supervisor_id: supervisorId, affiliate_id: id }));
    }
  }
  into.push(out);
}

/** The row's cells completed with the run's source and snapshot, and checked. */
function parseCredential(job: PrepareJob, cells: Record<string, string | undefined>) {
  // The adapter's objects are this row's alone: completed in place rather than copied (hot path).
  return CredentialRow.safeParse(Object.assign(cells, { source: job.source, snapshot_date: job.snapshot, last_verified: `${job.snapshot}T00:00:00.000Z` }));
}

/**
 * Whether the link's published supervisor holds: the first row naming it lands its credential (added
 * to `into` before the row); a later row giving it another name has its link rejected.
 */
function publishedSupervisor(job: PrepareJob, now: Date, out: PreparedRow, link: SourceLink, supervisorId: string, published: Published, into: PreparedRow[]): boolean {
  const name = (link.supervisor!.full_name ?? '').trim();
  const first = published.get(supervisorId);
  if (first && 'reject' in first) {
    out.linkRejects.push(first.reject);
    return false;
  }
  if (first) {
    // Letter case and spacing are not a different name.
    if (fold(first.name) === fold(name)) return true;
    const where = first.file === out.file ? `line ${first.line}` : `line ${first.line} of ${first.file}`;
    out.linkRejects.push({ reason: 'supervisor name differs', detail: `${link.supervisor_license_number} is named "${name}" here and "${first.name}" on ${where}` });
    return false;
  }
  const parsed = parseCredential(job, link.supervisor!);
  if (!parsed.success) {
    const reject = { reason: `invalid supervisor ${parsed.error.issues[0]?.path.join('.') || 'row'}`, detail: describeIssues(parsed.error) };
    published.set(supervisorId, { reject });
    out.linkRejects.push(reject);
    return false;
  }
  published.set(supervisorId, { name, file: out.file, line: out.line });
  into.push({ file: out.file, line: out.line, raw: out.raw, listed: supervisorId, record: credentialRecord(parsed.data, now), links: [], linkRejects: [], derived: true });
  return true;
}

/** The job's rows, prepared, in batches as the files are read. */
export async function* prepareRows(job: PrepareJob, onBytes: (bytes: number) => void = () => undefined): AsyncGenerator<PreparedRow[]> {
  const format = SOURCE_FORMATS.find((f) => f.format === job.format);
  if (!format) throw new Error(`unknown source format ${job.format}`);
  const now = new Date(job.now);
  let bytesBefore = 0;
  const published: Published = new Map();
  for (const file of job.files) {
    const name = path.basename(file);
    for await (const rows of format.rows(file, (b) => onBytes(bytesBefore + b))) {
      const prepared: PreparedRow[] = [];
      for (const row of rows) prepareRow(job, now, name, row, published, prepared);
      yield prepared;
    }
    bytesBefore += fs.statSync(file).size;
  }
}

/** Batches (of BATCH_ROWS) the worker may send ahead of the refresh: about one bulk write, so
 * parsing goes on while the refresh waits for a write; bounds memory when writes are slower. */
const WINDOW = 40;
export const BATCH_ROWS = 500;

/** Runs prepareRows in a worker thread; stops the worker when the caller stops early or fails. */
export async function* preparedBatches(job: PrepareJob): AsyncGenerator<PreparedBatch> {
  // A larger young generation: each row allocates short-lived objects, and the default one makes
  // the collector promote and sweep them (docs/decisions/0008).
  const worker = new Worker(new URL('./prepare-worker.mjs', import.meta.url), { workerData: { job, window: WINDOW }, resourceLimits: { maxYoungGenerationSizeMb: 64, maxOldGenerationSizeMb: 256 } });
  const queue: (PreparedBatch | { error: string } | null)[] = [];
  let wake: (() => void) | undefined;
  const push = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  worker.on('message', (m: PreparedBatch | { done: true } | { error: string }) => push('done' in m ? null : m));
  worker.on('error', (err) => push({ error: err.message }));
  worker.on('exit', (code) => push(code === 0 ? null : { error: `the parsing worker stopped with code ${code}` }));
  try {
    for (;;) {
      while (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (item === null) return;
      if ('error' in item) throw new Error(item.error);
      worker.postMessage('ack');
      yield item;
    }
  } finally {
    await worker.terminate();
  }
}
