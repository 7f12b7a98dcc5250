// The bulk import's chunk work: parses, validates and shapes chunks of canonical CSV into the
// LadybugDB bulk files' text, so the thread that loads them only checks keys and appends. Run in
// worker threads (bulk-import-worker.mjs), or in the importing thread for a one-chunk folder.
import type { z } from 'zod';
import type { ListFields, Row } from '../../graph/graph-port.js';
import { FIELD_SEPARATOR, LINK_COLUMNS, bulkText, credentialKey, credentialLine, csvRow, jurisdictionKey } from '../../graph/bulk-file.js';
import { brokerageContext, credentialRecord, relationshipRecord } from '../rows/import-records.js';
import { canonicalLicenseNumber } from '../../domain/identity.js';
import { CredentialRow, RelationshipRow, describeIssues } from '../rows/canonical-rows.js';
import { chunkRecords } from '../rows/chunk-records.js';
import { relationshipIdentity, type ChunkJob, type ChunkResult, type CredentialChunk, type RelationshipChunk, type RelationshipDetail } from './bulk-chunks.js';

export interface ChunkContext {
  now: string;
  known: string[];
}

/**
 * The function that turns a chunk job into its result, for an import at `now` into `known` states,
 * with the list fields as the sink encodes them (`fields`).
 */
export function chunkHandler({ now, known }: ChunkContext, fields: ListFields): (job: ChunkJob) => CredentialChunk | RelationshipChunk {
  const importedAt = new Date(now);
  const jurisdictions = new Set(known);
  return (job) => (job.kind === 'credentials' ? credentials(job, importedAt, jurisdictions, fields) : relationships(job, fields));
}

/** The chunk's rows that pass `schema`; the others go to `rejects`. */
function* validRows<S extends z.ZodType>(job: ChunkJob, schema: S, rejects: ChunkResult['rejects']): Generator<{ line: number; row: z.output<S> }> {
  for (const { line, record } of chunkRecords(job.text, job.header, job.firstLine, rejects)) {
    const parsed = schema.safeParse(record);
    if (parsed.success) yield { line, row: parsed.data };
    else rejects.push({ line, reason: describeIssues(parsed.error) });
  }
}

/** A relationship record's keys in the order of LINK_COLUMNS. */
const LINK_VALUES = ['supervisor_id', 'affiliate_id', ...LINK_COLUMNS.slice(2)];

function credentials(job: ChunkJob, importedAt: Date, jurisdictions: Set<string>, { credentialListFields, credentialDocs = true, importKeys = false }: ListFields): CredentialChunk {
  const rejects: ChunkResult['rejects'] = [];
  const skip = new Set(job.skip);
  const detail = new Set(job.detail);
  const out = { ids: [] as string[], listFields: [] as string[], lines: [] as number[], details: [] as { line: number; label: string }[], keyed: [] as CredentialChunk['keyed'], context: [] as Row[] };
  const [credentialLines, licenseeLines, jurisdictionLines, holdLines]: string[][] = [[], [], [], []];
  const states = new Map<string, { rows: number; active: number }>();
  for (const { line, row } of validRows(job, CredentialRow, rejects)) {
    if (!jurisdictions.has(row.state)) {
      rejects.push({ line, reason: `no jurisdiction ${row.state} on file: give it a jurisdictions.csv row first` });
      continue;
    }
    if (detail.has(line)) out.details.push({ line, label: `${row.state} ${canonicalLicenseNumber(row.license_number)}` });
    if (skip.has(line)) continue;
    const r = credentialRecord(row, importedAt);
    const id = r.id as string;
    const key = credentialKey(job.seq, out.ids.length);
    out.ids.push(id);
    out.listFields.push(credentialListFields(r));
    out.lines.push(line);
    const licensee = csvRow(['licensee_id', 'entity_type', 'display_name', 'licensee_key'], r);
    // How the files name the row: its key, or its id (ids, keys and state codes need no quoting).
    // A keyed licensee's key and hold are the loading thread's: it may be another chunk's too.
    const [named, prefix] = importKeys ? [key, `${key}${FIELD_SEPARATOR}`] : [id, ''];
    credentialLines.push(`${prefix}${credentialLine(r, credentialDocs)}`);
    if (row.licensee_key !== null) out.keyed.push([r.licensee_id as string, licensee, key]);
    else licenseeLines.push(`${prefix}${licensee}`);
    jurisdictionLines.push(`${named}${FIELD_SEPARATOR}${importKeys ? jurisdictionKey(row.state) : row.state}`);
    if (!importKeys) holdLines.push(`${r.licensee_id}${FIELD_SEPARATOR}${id}`);
    else if (row.licensee_key === null) holdLines.push(`${key}${FIELD_SEPARATOR}${key}`);
    if (row.brokerage_name) out.context.push(brokerageContext(id, row.state, row.brokerage_name, row.source));
    const count = states.get(row.state) ?? { rows: 0, active: 0 };
    count.rows += 1;
    if (row.status_normalized === 'active') count.active += 1;
    states.set(row.state, count);
  }
  return {
    seq: job.seq,
    rejects,
    ...out,
    states: [...states].map(([state, c]) => ({ state, ...c })),
    credentials: bulkText(credentialLines),
    licensees: bulkText(licenseeLines),
    jurisdictions: bulkText(jurisdictionLines),
    holds: bulkText(holdLines),
  };
}

function relationships(job: ChunkJob, { relationshipListFields }: ListFields): RelationshipChunk {
  const rejects: ChunkResult['rejects'] = [];
  const skip = new Set(job.skip);
  const detail = new Set(job.detail);
  const out = { seq: job.seq, rejects, lines: [] as number[], supervisors: [] as string[], affiliates: [] as string[], identities: [] as string[], listFields: [] as string[], details: [] as RelationshipDetail[] };
  const links: string[] = [];
  for (const { line, row } of validRows(job, RelationshipRow, rejects)) {
    const link = relationshipRecord(line, row);
    if (detail.has(line)) {
      out.details.push({ link, ends: `supervisor ${row.supervisor_state} ${row.supervisor_license_number} or affiliate ${row.affiliate_state} ${row.affiliate_license_number}` });
    }
    if (skip.has(line)) continue;
    out.lines.push(line);
    out.supervisors.push(link.supervisor_id);
    out.affiliates.push(link.affiliate_id);
    // A relationship is one per (supervisor, affiliate, type, start): a repeat is the same one.
    out.identities.push(relationshipIdentity(link));
    out.listFields.push(relationshipListFields(link));
    links.push(csvRow(LINK_VALUES, link));
  }
  return { ...out, links: bulkText(links) };
}
