// Worker thread of the bulk import: parses, validates and shapes chunks of canonical CSV into
// lines of the LadybugDB bulk files, so the main thread only checks keys and appends.
import { hash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import { csvRow } from '../graph/ladybug-bulk-file.js';
import { brokerageContext, credentialRecord, relationshipRecord } from './canonical-import.js';
import { CredentialRow, RelationshipRow, describeIssues, malformedRecord } from './canonical-rows.js';
import { CREDENTIAL_COLUMNS, LINK_COLUMNS, type ChunkJob, type ChunkResult, type CredentialOut, type RelationshipOut } from './bulk-import.js';

const { now, known } = workerData as { now: string; known: string[] };
const importedAt = new Date(now);
const jurisdictions = new Set(known);
const port = parentPort!;

function records(job: ChunkJob, rejects: ChunkResult['rejects']) {
  let lastLine = 0;
  const out = parse(job.text, {
    columns: job.header,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (record, context) => {
      lastLine = context.lines;
      return { record, line: job.firstLine - 1 + context.lines };
    },
    on_skip: (err) => {
      const skipped = malformedRecord(err, lastLine);
      rejects.push({ ...skipped, line: job.firstLine - 1 + skipped.line });
      if (err?.lines) lastLine = Number(err.lines);
      return undefined;
    },
  }) as unknown as { record: Record<string, string>; line: number }[];
  return out;
}

/** The chunk's rows that pass `schema`; the others go to `rejects`. */
function* validRows<S extends z.ZodType>(job: ChunkJob, schema: S, rejects: ChunkResult['rejects']): Generator<{ line: number; row: z.output<S> }> {
  for (const { line, record } of records(job, rejects)) {
    const parsed = schema.safeParse(record);
    if (parsed.success) yield { line, row: parsed.data };
    else rejects.push({ line, reason: describeIssues(parsed.error) });
  }
}

function credentials(job: ChunkJob): ChunkResult {
  const rejects: ChunkResult['rejects'] = [];
  const rows: CredentialOut[] = [];
  for (const { line, row } of validRows(job, CredentialRow, rejects)) {
    if (!jurisdictions.has(row.state)) {
      rejects.push({ line, reason: `no jurisdiction ${row.state} on file: give it a jurisdictions.csv row first` });
      continue;
    }
    const r = credentialRecord(row, importedAt);
    rows.push({
      line,
      id: r.id as string,
      state: row.state,
      number: r.license_number as string,
      text: csvRow(CREDENTIAL_COLUMNS, r),
      licensee: r.licensee_id as string,
      keyed: row.licensee_key !== null,
      licenseeText: csvRow(['licensee_id', 'entity_type', 'display_name', 'licensee_key'], r),
      context: row.brokerage_name ? brokerageContext(r.id as string, row.state, row.brokerage_name, row.source) : null,
      real: row.source !== 'demo',
    });
  }
  return { seq: job.seq, rejects, rows };
}

function relationships(job: ChunkJob): ChunkResult {
  const rejects: ChunkResult['rejects'] = [];
  const rows: RelationshipOut[] = [];
  for (const { line, row } of validRows(job, RelationshipRow, rejects)) {
    const link = relationshipRecord(line, row);
    rows.push({
      link,
      // A relationship is one per (supervisor, affiliate, type, start): a repeat is the same one.
      identity: hash('sha1', `${link.supervisor_id}|${link.affiliate_id}|${link.relationship_type}|${link.effective_from}`, 'base64'),
      text: csvRow(LINK_COLUMNS, { ...link, from: link.supervisor_id, to: link.affiliate_id }),
      ends: `supervisor ${row.supervisor_state} ${row.supervisor_license_number} or affiliate ${row.affiliate_state} ${row.affiliate_license_number}`,
    });
  }
  return { seq: job.seq, rejects, rows };
}

port.on('message', (job: ChunkJob) => {
  try {
    port.postMessage(job.kind === 'credentials' ? credentials(job) : relationships(job));
  } catch (err) {
    port.postMessage({ seq: job.seq, error: (err as Error).message });
  }
});
