import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BulkKind, BulkLoader, BulkSink, ListFields, ParsedRows, Row } from '../../graph/graph-port.js';
import { CREDENTIAL_COLUMNS, CREDENTIAL_DATES, FIELD_SEPARATOR, KEYED_LICENSEES_FROM, LINK_COLUMNS, type BulkText, bulkText, credentialKey } from '../../graph/bulk-file.js';
import type { ImportSummary, RejectedRow } from '../rows/import-records.js';
import type { ImportRepo, UnitEvents } from '../import-repo.js';
import { relationshipIdentity, type ChunkJob, type CredentialChunk, type RelationshipChunk } from './bulk-chunks.js';
import { chunkHandler, type ChunkContext } from './bulk-import-worker.js';

/**
 * The canonical import's bulk path: the first import into a graph without credentials, on an
 * engine that loads files (LadybugDB's COPY, or the input files of Neo4j's offline importer). Worker threads parse, validate and shape chunks of the
 * CSV files into lines of bulk files; the main thread checks keys, appends, and hands the files
 * to COPY statements: the credentials (one COPY per COPY_ROWS), then their licensees and links
 * while the workers read the relationships, then the relationships. All of it is one writeLarge unit: a failure leaves the graph as it was. Reports,
 * counts and rejects are the upsert path's.
 */

/** Credentials per COPY: the first COPY into an empty table is the cheap one, so a national set goes in one (0008). */
const COPY_ROWS = 4_000_000;
/** Bytes of CSV per chunk handed to a worker. */
const CHUNK_BYTES = 1 << 20;

/** Line breaks in buf[from, to). */
function lineBreaks(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a, from); i !== -1 && i < to; i = buf.indexOf(0x0a, i + 1)) n += 1;
  return n;
}

/**
 * The end (after its line break) of the first record that ends at or after `min`, scanning from
 * `from`, a record start: a line break outside quotes. -1 when the buffer holds none. Jumps from
 * quote to quote and break to break (native searches): quotes are rare, and a byte-by-byte scan
 * cost the main thread a fifth of a 3M-row load.
 */
function recordEnd(buf: Buffer, from: number, min: number): number {
  let quoted = false;
  let q = buf.indexOf(0x22, from);
  let i = min;
  for (;;) {
    const nl = buf.indexOf(0x0a, i);
    if (nl === -1) return -1;
    while (q !== -1 && q < nl) {
      quoted = !quoted;
      q = buf.indexOf(0x22, q + 1);
    }
    if (!quoted) return nl + 1;
    i = nl + 1;
  }
}

/**
 * Splits a CSV file into chunks of about CHUNK_BYTES that end at record boundaries, after its
 * header record. Where no boundary comes within 64 chunks' worth of bytes (an unclosed quote),
 * the text is cut at a line break anyway: the worker's parser reports the broken record.
 */
async function* csvChunks(file: string): AsyncGenerator<{ header: string[] } | { text: string; firstLine: number }> {
  let pending: Buffer = Buffer.alloc(0);
  let line = 1;
  let header: string[] | undefined;
  const take = (end: number) => {
    const text = pending.toString('utf8', 0, end);
    const out = header ? { text, firstLine: line } : { header: (header = parseHeader(text.replace(/^\uFEFF/, '').replace(/\r?\n$/, ''))) };
    line += lineBreaks(pending, 0, end);
    pending = pending.subarray(end);
    return out;
  };
  for await (const data of fs.createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    pending = pending.length ? Buffer.concat([pending, data as Buffer]) : (data as Buffer);
    for (;;) {
      const min = header ? CHUNK_BYTES : 0;
      if (pending.length <= min) break;
      let end = recordEnd(pending, 0, min);
      if (end === -1 && pending.length > 64 * CHUNK_BYTES) end = pending.lastIndexOf(0x0a) + 1;
      if (end <= 0) break;
      yield take(end);
    }
  }
  if (pending.length) yield take(pending.length);
}

function parseHeader(line: string): string[] {
  // A header cell may be quoted; names hold no quotes or commas of their own.
  return line.split(',').map((h) => h.replace(/^\s*"?|"?\s*$/g, '').trim().toLowerCase());
}

/** Runs chunk jobs on a pool of workers; results come back in the order of the jobs. */
function workerPool(size: number, data: ChunkContext & { listFields: string }) {
  type Result = CredentialChunk | RelationshipChunk;
  // A chunk's rows live for one message: a young generation that holds several chunks lets them die
  // there (docs/decisions/0008).
  const workers = Array.from({ length: size }, () => new Worker(new URL('./bulk-import-worker.mjs', import.meta.url), { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 256 } }));
  const waiting = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();
  let failure: Error | undefined;
  for (const w of workers) {
    w.on('message', (m: Result | { seq: number; error: string }) => {
      const p = waiting.get(m.seq)!;
      waiting.delete(m.seq);
      if ('error' in m) p.reject(new Error(m.error));
      else p.resolve(m);
    });
    w.on('error', (err) => {
      failure = err;
      for (const p of waiting.values()) p.reject(err);
      waiting.clear();
    });
  }
  let next = 0;
  return {
    run<R extends Result>(job: Omit<ChunkJob, 'seq'>): Promise<R> {
      if (failure) return Promise.reject(failure);
      const seq = next++;
      const promise = new Promise<R>((resolve, reject) => waiting.set(seq, { resolve: resolve as (r: Result) => void, reject }));
      workers[seq % size].postMessage({ ...job, seq });
      return promise;
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

/** The worker pool's interface, with the chunks handled in this thread. */
function inThreadPool(context: ChunkContext, fields: ListFields): ReturnType<typeof workerPool> {
  const handle = chunkHandler(context, fields);
  let seq = 0;
  return {
    run: async <R extends CredentialChunk | RelationshipChunk>(job: Omit<ChunkJob, 'seq'>) => handle({ ...job, seq: seq++ }) as R,
    close: async () => [],
  };
}

/** The results of a file's chunks with their jobs, in file order, at most `ahead` chunks in the workers. */
async function* chunkResults<R extends CredentialChunk | RelationshipChunk>(pool: ReturnType<typeof workerPool>, file: string, kind: ChunkJob['kind'], ahead: number): AsyncGenerator<{ job: Omit<ChunkJob, 'seq'>; result: R }> {
  const inFlight: { job: Omit<ChunkJob, 'seq'>; result: Promise<R> }[] = [];
  let header: string[] = [];
  for await (const chunk of csvChunks(file)) {
    if ('header' in chunk) {
      header = chunk.header;
      continue;
    }
    const job = { kind, header, text: chunk.text, firstLine: chunk.firstLine };
    const result = pool.run<R>(job);
    result.catch(() => undefined);
    inFlight.push({ job, result });
    if (inFlight.length >= ahead) {
      const next = inFlight.shift()!;
      yield { job: next.job, result: await next.result };
    }
  }
  for (const next of inFlight) yield { job: next.job, result: await next.result };
}

/** An append-only bulk file with the sink's header line. */
function bulkFile(dir: string, name: string, header: string, columns: string[], dates: string[]) {
  const file = path.join(dir, `${name}.csv`);
  let fd = fs.openSync(file, 'w');
  let rows = 0;
  let broken = false;
  const start = () => fs.writeSync(fd, `${header}\n`);
  start();
  return {
    get rows() {
      return rows;
    },
    append(lines: BulkText) {
      if (!lines.rows) return;
      fs.writeSync(fd, lines.text);
      broken ||= lines.lineBreaks;
      rows += lines.rows;
    },
    /** Closes the file for a load and starts the next one under another name. */
    take(): { path: string; columns: string[]; dates: string[]; lineBreaks: boolean; rows: number } {
      fs.closeSync(fd);
      const taken = path.join(dir, `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}.csv`);
      fs.renameSync(file, taken);
      const out = { path: taken, columns, dates, lineBreaks: broken, rows };
      fd = fs.openSync(file, 'w');
      rows = 0;
      broken = false;
      start();
      return out;
    },
  };
}

export interface BulkImportInput {
  folder: string;
  now: Date;
  jurisdictions: Row[];
  rejected: RejectedRow[];
  summary: ImportSummary;
  /** The load's change events, staged inside its unit (given the jurisdiction codes). */
  events?: UnitEvents<string[] | void>;
}

/** The statements the bulk path runs over rows no file holds. */
export interface BulkStatements {
  linkBrokerageContext: string;
  writeCounts: string;
  upsertRelationships: string;
}

const fileSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** Loads the folder through the engine's bulk path; false (nothing written) when the graph has credentials. */
export async function bulkImport(repo: ImportRepo, loader: BulkLoader, input: BulkImportInput): Promise<boolean> {
  return loader(async (sink, t) => {
    if (!(await repo.bulk.empty(t))) return false;
    if (input.jurisdictions.length) await repo.writes.writeJurisdictions(t, input.jurisdictions);
    input.summary.jurisdictions = input.jurisdictions.length;
    const known = await repo.bulk.jurisdictionCodes(t);
    await bulkLoad(sink, repo.bulk.queries, input, known);
    if (input.events && (await input.events.stage(t, [...known]))) await repo.markRun(t, input.events.id);
    return true;
  });
}

/**
 * The bulk path into `sink`, for a graph without credentials whose jurisdictions are `known`:
 * every credential, licensee, link and relationship of the folder, and what the sink makes of them, as files, the
 * rest as statements.
 */
export async function bulkLoad(sink: BulkSink, q: BulkStatements, input: BulkImportInput, known: Set<string>): Promise<void> {
  const { folder, now } = input;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-bulk-import-'));
  try {
    let lists: ReturnType<ParsedRows['write']> | undefined;
    const parsed = sink.parsed();
    // No more workers than the larger file has chunks, and none for one chunk: a worker with its
    // own loader costs tens of MB, more than a chunk takes to parse.
    const chunks = Math.max(...['credentials.csv', 'relationships.csv'].map((f) => Math.ceil(fileSize(path.join(folder, f)) / CHUNK_BYTES)));
    const context = { now: now.toISOString(), known: [...known] };
    // The list fields as the sink encodes them: the workers import its module too.
    const fields = (await import(sink.listFields)) as ListFields;
    const pool = chunks > 1 ? workerPool(Math.min(4, os.availableParallelism(), chunks), { ...context, listFields: sink.listFields }) : inThreadPool(context, fields);
    try {
      const { ids, written } = await loadCredentials(sink, q, pool, path.join(folder, 'credentials.csv'), dir, input, parsed, fields.importKeys === true);
      written.catch(() => undefined);
      try {
        // The relationships are read while the engine loads the credentials.
        lists = await loadRelationships(sink, q, pool, path.join(folder, 'relationships.csv'), dir, ids, written, input, parsed, fields);
      } finally {
        await written.catch(() => undefined);
      }
      await written;
    } finally {
      await pool.close();
    }
    // The graph was empty: every list is new.
    await lists?.load(sink);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads the credentials; `written` settles when the engine has loaded them, their licensees and links. */
async function loadCredentials(sink: BulkSink, q: BulkStatements, pool: ReturnType<typeof workerPool>, file: string, dir: string, input: BulkImportInput, parsed: ParsedRows, keys: boolean) {
  // Each credential's number among the parsed rows (-1 until its chunk is taken).
  const ids = new Map<string, number>();
  if (!fs.existsSync(file)) return { ids, written: Promise.resolve() };
  const name = path.basename(file);
  const output = (kind: BulkKind, name: string, columns: string[], dates: string[]) => bulkFile(dir, name, sink.header(kind, columns, dates), columns, dates);
  // With importKeys, the nodes' files lead with their keys (bulk-file.ts, importKey).
  const key = keys ? ['key'] : [];
  const credentials = output('credentials', 'credentials', [...key, ...CREDENTIAL_COLUMNS], CREDENTIAL_DATES);
  const licensees = output('licensees', 'licensees', [...key, 'id', 'entity_type', 'display_name', 'licensee_key'], []);
  const jurisdictionLinks = output('jurisdictionLinks', 'in-jurisdiction', ['from', 'to'], []);
  const holds = output('holds', 'holds', ['from', 'to'], []);
  // Credentials sharing a licensee key share one licensee: the last row's values win, as in a MERGE.
  const keyed = new Map<string, string>();
  const keyedKeys = new Map<string, number>();
  const context: Row[] = [];
  const counts = new Map<string, { state: string; rows: number; active: number }>();
  let copying: Promise<void> = Promise.resolve();
  const copy = async () => {
    const taken = credentials.take();
    await copying;
    copying = sink.load('credentials', taken).finally(() => fs.rmSync(taken.path, { force: true }));
    copying.catch(() => undefined);
  };
  for await (const { job, result } of chunkResults<CredentialChunk>(pool, file, 'credentials', 16)) {
    for (const r of result.rejects) input.rejected.push({ file: name, ...r });
    // The first row of an id is kept, as on the upsert path.
    const duplicates: number[] = [];
    result.ids.forEach((id, i) => (ids.has(id) ? duplicates.push(result.lines[i]) : ids.set(id, -1)));
    // Rare: the chunk is shaped again without them, with their details (its other rejects are
    // already reported).
    const chunk = duplicates.length ? await pool.run<CredentialChunk>({ ...job, skip: duplicates, detail: duplicates }) : result;
    for (const { line, label } of chunk.details) input.rejected.push({ file: name, line, reason: `${label} appears more than once` });
    chunk.ids.forEach((id, i) => ids.set(id, parsed.addCredential(id, chunk.listFields[i], credentialKey(chunk.seq, i))));
    credentials.append(chunk.credentials);
    licensees.append(chunk.licensees);
    jurisdictionLinks.append(chunk.jurisdictions);
    holds.append(chunk.holds);
    for (const [id, text] of chunk.keyed) keyed.set(id, text);
    if (keys && chunk.keyed.length) {
      const held = chunk.keyed.map(([id, , credential]) => {
        let k = keyedKeys.get(id);
        if (k === undefined) keyedKeys.set(id, (k = KEYED_LICENSEES_FROM + keyedKeys.size));
        return `${k}${FIELD_SEPARATOR}${credential}`;
      });
      holds.append(bulkText(held));
    }
    for (const c of chunk.context) context.push(c);
    for (const { state, rows, active } of chunk.states) {
      const count = counts.get(state) ?? { state, rows: 0, active: 0 };
      counts.set(state, { state, rows: count.rows + rows, active: count.active + active });
    }
    input.summary.credentials += chunk.credentials.rows;
    if (credentials.rows >= COPY_ROWS) await copy();
  }
  if (credentials.rows) await copy();
  licensees.append(bulkText(keys ? [...keyed].map(([id, text]) => `${keyedKeys.get(id)}${FIELD_SEPARATOR}${text}`) : [...keyed.values()]));
  const rest = [['licensees', licensees.take()], ['jurisdictionLinks', jurisdictionLinks.take()], ['holds', holds.take()]] as const;
  const written = (async () => {
    await copying;
    for (const [kind, taken] of rest) {
      if (taken.rows) await sink.load(kind, taken);
    }
    for (let i = 0; i < context.length; i += 2000) await sink.run(q.linkBrokerageContext, { rows: context.slice(i, i + 2000) });
    // The graph held no credentials: the rows loaded are the counts.
    if (counts.size) await sink.run(q.writeCounts, { rows: [...counts.values()], now: input.now.toISOString() });
  })();
  return { ids, written };
}

/** Reads and loads the relationships; returns what the sink made of the parsed rows, written to files. */
async function loadRelationships(sink: BulkSink, q: BulkStatements, pool: ReturnType<typeof workerPool>, file: string, dir: string, ids: Map<string, number>, credentialsWritten: Promise<void>, input: BulkImportInput, parsed: ParsedRows, fields: ListFields) {
  if (!fs.existsSync(file)) return undefined;
  const name = path.basename(file);
  const links = bulkFile(dir, 'supervises', sink.header('links', LINK_COLUMNS, ['effective_from', 'effective_to']), LINK_COLUMNS, ['effective_from', 'effective_to']);
  // Each relationship's number among the parsed rows, by relationshipIdentity.
  const seen = new Map<string, number>();
  // A relationship listed again: loaded once, then set from its later rows in order, so the last
  // row's values win as on the upsert path.
  const repeats: Row[] = [];
  for await (const { job, result } of chunkResults<RelationshipChunk>(pool, file, 'relationships', 16)) {
    for (const r of result.rejects) input.rejected.push({ file: name, ...r });
    const missing = new Set<number>();
    const repeated = new Set<number>();
    result.lines.forEach((line, i) => {
      const supervisor = ids.get(result.supervisors[i]);
      const affiliate = ids.get(result.affiliates[i]);
      if (supervisor === undefined || affiliate === undefined) missing.add(line);
      else if (seen.has(result.identities[i])) repeated.add(line);
      else seen.set(result.identities[i], parsed.addRelationship(supervisor, affiliate, result.listFields[i]));
    });
    input.summary.relationships += result.lines.length - missing.size;
    if (!missing.size && !repeated.size) {
      links.append(result.links);
      continue;
    }
    // Rare: the chunk is shaped again without those rows, with their details.
    const lines = [...missing, ...repeated];
    const chunk = await pool.run<RelationshipChunk>({ ...job, skip: lines, detail: lines });
    links.append(chunk.links);
    for (const { link, ends } of chunk.details) {
      if (missing.has(link.line)) input.rejected.push({ file: name, line: link.line, reason: `${ends} is not on file` });
      else {
        repeats.push(link);
        parsed.setRelationship(seen.get(relationshipIdentity(link))!, fields.relationshipListFields(link));
      }
    }
  }
  const taken = links.take();
  // Written while the engine loads the credentials.
  const lists = parsed.write(dir, sink);
  // Both ends must be loaded first.
  await credentialsWritten;
  if (taken.rows) await sink.load('links', taken);
  for (let i = 0; i < repeats.length; i += 2000) await sink.run(q.upsertRelationships, { rows: repeats.slice(i, i + 2000) });
  return lists;
}
