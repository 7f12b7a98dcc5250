import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import type { z } from 'zod';
import { JURISDICTION_NAMES } from '../../domain/jurisdictions.js';
import type { Row } from '../../graph/graph-port.js';
import { BadRequestError } from '../../errors.js';
import { CredentialRow, JurisdictionRow, RelationshipRow, describeIssues, malformedRecord } from '../rows/canonical-rows.js';
import { canonicalLicenseNumber } from '../../domain/identity.js';
import { importEvents } from './import-events.js';
import type { ImportBatches, ImportRepo } from '../import-repo.js';

type ImportEvents = ReturnType<typeof importEvents>;
import { brokerageContext, credentialRecord, relationshipRecord, type ImportSummary, type RejectedRow } from '../rows/import-records.js';

const FILES = ['jurisdictions.csv', 'credentials.csv', 'relationships.csv'] as const;

/**
 * Streams rows of one CSV file with their line numbers; malformed CSV records are reported as
 * rejected rows instead of aborting the file.
 */
async function* csvRows(file: string, rejected: RejectedRow[]): AsyncGenerator<{ line: number; record: Record<string, string> }> {
  const name = path.basename(file);
  const parser = fs.createReadStream(file).pipe(
    parse({
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      skip_records_with_error: true,
      info: true,
    }),
  );
  let lastLine = 1; // the header
  parser.on('skip', (err: Error & { lines?: number; code?: string }) => {
    rejected.push({ file: name, ...malformedRecord(err, lastLine) });
    lastLine = err.lines ?? lastLine;
  });
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    lastLine = info.lines;
    yield { line: info.lines, record };
  }
}

async function* validRows<S extends z.ZodType>(
  file: string,
  schema: S,
  rejected: RejectedRow[],
): AsyncGenerator<{ line: number; row: z.output<S> }> {
  for await (const { line, record } of csvRows(file, rejected)) {
    const parsed = schema.safeParse(record);
    if (parsed.success) yield { line, row: parsed.data };
    else rejected.push({ file: path.basename(file), line, reason: describeIssues(parsed.error) });
  }
}

async function* batches<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of source) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** What every import of a folder starts with: its jurisdictions read, and the summary to fill. */
export async function startImport(folder: string, now: Date) {
  const started = Date.now();
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new BadRequestError(`import folder not found: ${folder}`);
  const present = FILES.filter((f) => fs.existsSync(path.join(folder, f)));
  if (present.length === 0) throw new BadRequestError(`${folder} holds none of ${FILES.join(', ')}`);

  const rejected: RejectedRow[] = [];
  const summary: ImportSummary = {
    folder: path.resolve(folder),
    jurisdictions: 0,
    credentials: 0,
    relationships: 0,
    rejected,
    demo_records_removed_for: [],
    elapsed_ms: 0,
  };

  // At most one row per jurisdiction: few enough to hold.
  const jurisdictions: Row[] = [];
  const jurisdictionsFile = path.join(folder, 'jurisdictions.csv');
  if (fs.existsSync(jurisdictionsFile)) {
    const seen = new Set<string>();
    for await (const { line, row } of validRows(jurisdictionsFile, JurisdictionRow, rejected)) {
      if (seen.has(row.state)) {
        rejected.push({ file: 'jurisdictions.csv', line, reason: `state ${row.state} appears more than once` });
        continue;
      }
      seen.add(row.state);
      jurisdictions.push({ ...row, name: JURISDICTION_NAMES[row.state], is_demo: false, source_id: row.source_id ?? `${row.state.toLowerCase()}-source` });
    }
  }
  const done = () => {
    rejected.sort((a, b) => FILES.indexOf(a.file as never) - FILES.indexOf(b.file as never) || a.line - b.line);
    summary.elapsed_ms = Date.now() - started;
    return summary;
  };
  return { now, rejected, summary, jurisdictions, done };
}
export type StartedImport = Awaited<ReturnType<typeof startImport>>;

/** Upserts a folder's rows over what is on file, in batches: the import once the graph holds credentials, or where the engine has no bulk path. */
export async function upsertFolder(repo: ImportRepo, folder: string, { now, rejected, summary, jurisdictions }: StartedImport, events: ImportEvents, batchSize: number) {
  await repo.run(async (unit) => {
    for (let i = 0; i < jurisdictions.length; i += batchSize) await unit.upsertJurisdictions(jurisdictions.slice(i, i + batchSize));
    summary.jurisdictions = jurisdictions.length;
    const rowsByState = new Map<string, number>();
    try {
      await importCredentials(repo, unit, events, folder, now, batchSize, rejected, summary, rowsByState);
      await importRelationships(unit, events, folder, batchSize, rejected, summary);
    } finally {
      // Counts follow whatever landed, also when a later batch failed.
      if (rowsByState.size) {
        await events.loaded((e) => unit.refreshCounts([...rowsByState].map(([state, rows]) => ({ state, rows })), now.toISOString(), e));
      }
    }
  });
}

async function importCredentials(repo: ImportRepo, unit: ImportBatches, events: ImportEvents, folder: string, now: Date, batchSize: number, rejected: RejectedRow[], summary: ImportSummary, rowsByState: Map<string, number>) {
  const credentialsFile = path.join(folder, 'credentials.csv');
  if (!fs.existsSync(credentialsFile)) return;
  const known = await repo.jurisdictionCodes();
  const demoChecked = new Set<string>();
  const seenIds = new Set<string>();
  for await (const batch of batches(validRows(credentialsFile, CredentialRow, rejected), batchSize)) {
    const records: Row[] = [];
    const context: Row[] = [];
    for (const { line, row } of batch) {
      if (!known.has(row.state)) {
        rejected.push({ file: 'credentials.csv', line, reason: `no jurisdiction ${row.state} on file: give it a jurisdictions.csv row first` });
        continue;
      }
      const record = credentialRecord(row, now);
      if (seenIds.has(record.id as string)) {
        rejected.push({ file: 'credentials.csv', line, reason: `${row.state} ${record.license_number} appears more than once` });
        continue;
      }
      seenIds.add(record.id as string);
      records.push(record);
      rowsByState.set(row.state, (rowsByState.get(row.state) ?? 0) + 1);
      if (row.brokerage_name) context.push(brokerageContext(record.id as string, row.state, row.brokerage_name, row.source));
    }
    for (const [state, source] of new Map(records.map((r) => [r.state as string, r.source as string]))) await events.seeState(state, source);
    // A real import of a state replaces that state's demo records.
    const realStates = [...new Set(records.filter((r) => r.source !== 'demo').map((r) => r.state as string))].filter((s) => !demoChecked.has(s));
    if (realStates.length) {
      summary.demo_records_removed_for.push(...(await unit.deleteDemoCredentials(realStates)));
      realStates.forEach((s) => demoChecked.add(s));
    }
    if (records.length) await events.credentials(records, (e) => unit.upsertCredentials(records, context, e));
    summary.credentials += records.length;
  }
}

async function importRelationships(unit: ImportBatches, events: ImportEvents, folder: string, batchSize: number, rejected: RejectedRow[], summary: ImportSummary) {
  const relationshipsFile = path.join(folder, 'relationships.csv');
  if (!fs.existsSync(relationshipsFile)) return;
  for await (const batch of batches(validRows(relationshipsFile, RelationshipRow, rejected), batchSize)) {
    const rows = batch.map(({ line, row }) => ({ ...relationshipRecord(line, row), supervisor_state: row.supervisor_state, affiliate_state: row.affiliate_state }));
    // A relationship listed twice in a batch goes in once, with its last row's values: inside
    // one UNWIND, LadybugDB's MERGE keeps the first row's. Every row of it lands if that one does.
    const identity = (r: (typeof rows)[number]) => `${r.supervisor_id}|${r.affiliate_id}|${r.relationship_type}|${r.effective_from}`;
    const last = new Map(rows.map((r) => [identity(r), r]));
    const upserted = [...last.values()];
    const byLine = new Map(batch.map(({ line, row }) => [line, row]));
    const changes = upserted.map((r) => {
      const row = byLine.get(r.line)!;
      return { ...r, supervisor_license_number: canonicalLicenseNumber(row.supervisor_license_number), affiliate_license_number: canonicalLicenseNumber(row.affiliate_license_number) };
    });
    const landedLines = new Set(await events.relationships(changes, (e) => unit.upsertRelationships(upserted, e)));
    const landed = new Set(rows.filter((r) => landedLines.has(last.get(identity(r))!.line)).map((r) => r.line));
    for (const { line, row } of batch) {
      if (!landed.has(line)) {
        rejected.push({
          file: 'relationships.csv',
          line,
          reason: `supervisor ${row.supervisor_state} ${row.supervisor_license_number} or affiliate ${row.affiliate_state} ${row.affiliate_license_number} is not on file`,
        });
      }
    }
    summary.relationships += landed.size;
  }
}
