// The delimited dialect of the bulk sinks' files: LadybugDB loads it (LOAD FROM, COPY FROM; its
// engine writes it for bulk(), producers for bulkFile()) and Neo4j's offline importer reads it with
// typed headers (neo4j/import-files.ts). Part of the port, so worker threads and both adapters
// share it without loading an engine.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { encodeDoc } from './credential-doc.js';
import type { Row } from './graph-port.js';

/** Joins list cells in bulk-load files (a control character no published value holds). */
export const NOTES_SEPARATOR = '\u001f';
/** Field delimiter and quote of bulk-load files: control characters, so almost no field needs quoting. */
export const FIELD_SEPARATOR = '\u001e';
export const QUOTE = '\u0002';
const NEEDS_QUOTES = /[\u001e\u0002\n\r]/;
const LINE_BREAK = /[\n\r]/;

/**
 * Delimited text of rows for LOAD FROM, null as an empty field. Fields are quoted only when they
 * must be (one holding the delimiter, the quote or a line break): LadybugDB reads unquoted fields
 * faster, and a JSON `doc` is full of ordinary quotes. LadybugDB reads an empty field as null,
 * quoted or not: the records never hold empty strings. Written by hand because the file is on the
 * refresh's hot path (docs/decisions/0008).
 * List cells are joined by NOTES_SEPARATOR. `lineBreaks`: some field holds a line break, which
 * LadybugDB's parallel reader cannot take.
 */
export function csvText(columns: string[], rows: Row[]): { text: string; lineBreaks: boolean } {
  const body = bulkText(rows.map((r) => csvRow(columns, r)));
  return { text: `${csvHeader(columns)}\n${body.text}`, lineBreaks: body.lineBreaks };
}

/** Lines of a bulk file (csvRow), joined: empty, or ending in a line break. */
export interface BulkText {
  text: string;
  rows: number;
  /** Some field holds a line break (see csvText). */
  lineBreaks: boolean;
}
export const bulkText = (lines: string[]): BulkText => ({
  text: lines.length ? `${lines.join('\n')}\n` : '',
  rows: lines.length,
  // A field holding a line break is quoted (csvCell), so only a line with a quote can hold one.
  lineBreaks: lines.some((line) => line.includes(QUOTE) && LINE_BREAK.test(line)),
});

/** The header line of a bulk file (see csvText). */
export const csvHeader = (columns: string[]) => columns.join(FIELD_SEPARATOR);

/** A value as a bulk file gives it back (readBulkFile): text, list cells joined, null for none or empty. */
export function bulkValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const text = Array.isArray(v) ? v.join(NOTES_SEPARATOR) : String(v);
  return text === '' ? null : text;
}

function csvCell(v: unknown): string {
  const text = bulkValue(v) ?? '';
  return NEEDS_QUOTES.test(text) ? `${QUOTE}${text.replaceAll(QUOTE, QUOTE + QUOTE)}${QUOTE}` : text;
}

/** One row of a bulk file (see csvText), without its line break: it holds one only inside a
 * quoted field. */
export const csvRow = (columns: string[], row: Row) => columns.map((k) => csvCell(row[k])).join(FIELD_SEPARATOR);

/** Rows of a file in this dialect without a header (LadybugDB COPY TO), in chunks; empty fields read as null. */
export async function* readBulkFile(file: string): AsyncGenerator<(string | null)[][]> {
  for await (const records of readBulkRecords(file)) yield records.map(bulkFields);
}

/** The records of such a file as their text, in chunks: a quoted field's line breaks kept inside. */
export async function* readBulkRecords(file: string): AsyncGenerator<string[]> {
  let rest: Buffer = Buffer.alloc(0);
  // The lines of a record whose quoted field is still open at the end of a chunk's lines.
  let open = '';
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 22 })) {
    const buf: Buffer = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    // Whole lines decoded at once: a multi-byte character never straddles two decodes.
    const end = buf.lastIndexOf(LF) + 1;
    rest = buf.subarray(end);
    if (end === 0) continue;
    const text = open + buf.toString('utf8', 0, end);
    open = '';
    const lines = text.split('\n');
    lines.pop();
    if (!text.includes(QUOTE)) {
      yield lines;
      continue;
    }
    const chunkRecords: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      // A quoted field may hold a line break: join lines until its quotes close.
      while (quoteCount(line) % 2 === 1 && i + 1 < lines.length) line += `\n${lines[++i]}`;
      if (quoteCount(line) % 2 === 1) {
        open = `${line}\n`;
        break;
      }
      chunkRecords.push(line);
    }
    if (chunkRecords.length) yield chunkRecords;
  }
  const last = open + rest.toString('utf8');
  if (last) yield [last];
}

const quoteCount = (line: string) => {
  let n = 0;
  for (let at = line.indexOf(QUOTE); at !== -1; at = line.indexOf(QUOTE, at + 1)) n++;
  return n;
};
/** The fields of one record (see readBulkRecords). */
export function bulkFields(line: string): (string | null)[] {
  if (!line.includes(QUOTE)) {
    const fields: (string | null)[] = line.split(FIELD_SEPARATOR);
    for (let i = 0; i < fields.length; i++) if (fields[i] === '') fields[i] = null;
    return fields;
  }
  const out: (string | null)[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === QUOTE && line[i + 1] === QUOTE) field += line[++i];
      else if (ch === QUOTE) quoted = false;
      else field += ch;
    } else if (ch === QUOTE) quoted = true;
    else if (ch === FIELD_SEPARATOR) {
      out.push(field || null);
      field = '';
    } else field += ch;
  }
  out.push(field || null);
  return out;
}

/**
 * Splits a file of this dialect's records (readBulkRecords) into files in `dir`: each record goes,
 * in file order, to the file of every key `route` gives it (none, one or several). The files by
 * key, in the order of their first record; the source file is left as it is.
 */
export async function splitBulkFile<K>(file: string, dir: string, route: (record: string) => Iterable<K>): Promise<Map<K, string>> {
  const parts = partFiles<K>(dir);
  try {
    for await (const records of readBulkRecords(file)) {
      const byKey = new Map<K, string[]>();
      for (const record of records) {
        for (const key of route(record)) {
          const list = byKey.get(key);
          if (list) list.push(record);
          else byKey.set(key, [record]);
        }
      }
      for (const [key, list] of byKey) fs.writeSync(parts.fd(key), `${list.join('\n')}\n`);
    }
  } finally {
    parts.close();
  }
  return parts.paths();
}

/** The part files of a split, one per key in the order of its first record, in `dir`. */
function partFiles<K>(dir: string) {
  const out = new Map<K, { path: string; fd: number }>();
  return {
    fd(key: K) {
      let part = out.get(key);
      if (!part) {
        const at = path.join(dir, `part-${out.size}.csv`);
        out.set(key, (part = { path: at, fd: fs.openSync(at, 'w') }));
      }
      return part.fd;
    },
    close: () => out.forEach(({ fd }) => fs.closeSync(fd)),
    paths: () => new Map([...out].map(([key, part]) => [key, part.path])),
  };
}

const [LF, QUOTE_BYTE, SEPARATOR_BYTE] = [0x0a, QUOTE.charCodeAt(0), FIELD_SEPARATOR.charCodeAt(0)];

/**
 * splitBulkFile keyed by each record's first field, on the file's bytes: records are copied as
 * runs of bytes, never decoded (a search index's first build splits hundreds of MB). The line
 * break, quote and separator are single bytes that no multi-byte UTF-8 character holds.
 */
export async function splitBulkFileByFirstField(file: string, dir: string, chunkBytes = 1 << 22): Promise<Map<string, string>> {
  const parts = partFiles<string>(dir);
  const keyOf = (buf: Buffer, from: number, end: number) => {
    const sep = buf.indexOf(SEPARATOR_BYTE, from);
    // As splitBulkFile's route reads a record with no separator: all but its last character.
    return sep !== -1 && sep < end ? buf.toString('utf8', from, sep) : buf.toString('utf8', from, end).slice(0, -1);
  };
  /** Writes buf's whole records (a run of records of one key at a time) and returns where the unfinished one starts; `last`: the end of the file, where an open quote ends too. */
  const write = (buf: Buffer, last: boolean) => {
    const runs = new Map<string, Buffer[]>();
    let [start, runStart, runKey, quotes, scanned] = [0, 0, '', 0, 0];
    let nextQuote = buf.indexOf(QUOTE_BYTE);
    const flush = (end: number) => {
      if (end <= runStart) return;
      const list = runs.get(runKey);
      if (list) list.push(buf.subarray(runStart, end));
      else runs.set(runKey, [buf.subarray(runStart, end)]);
    };
    for (let nl = buf.indexOf(LF); nl !== -1; nl = buf.indexOf(LF, scanned)) {
      for (; nextQuote !== -1 && nextQuote < nl; nextQuote = buf.indexOf(QUOTE_BYTE, nextQuote + 1)) quotes++;
      scanned = nl + 1;
      // A quoted field holds this line break: the record goes on.
      if (quotes % 2 === 1 && !(last && scanned === buf.length)) continue;
      const key = keyOf(buf, start, nl);
      if (key !== runKey) {
        flush(start);
        [runKey, runStart] = [key, start];
      }
      [start, quotes] = [scanned, 0];
    }
    flush(start);
    for (const [key, list] of runs) fs.writevSync(parts.fd(key), list);
    return start;
  };
  try {
    let rest: Buffer = Buffer.alloc(0);
    for await (const chunk of fs.createReadStream(file, { highWaterMark: chunkBytes })) {
      const buf: Buffer = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
      rest = Buffer.from(buf.subarray(write(buf, false)));
    }
    // A last record without its line break is given one, as splitBulkFile writes it.
    if (rest.length) write(Buffer.concat([rest, Buffer.from('\n')]), true);
  } finally {
    parts.close();
  }
  return parts.paths();
}

/**
 * The rows of several exports (bulk files without a header, made one after another, or `atOnce`)
 * in the first one's file, the others removed; no file is left when one fails.
 */
export async function concatExports(exports: (() => Promise<string>)[], atOnce = false): Promise<string> {
  if (atOnce) {
    const made = await Promise.allSettled(exports.map((e) => e()));
    const failed = made.find((m) => m.status === 'rejected');
    if (failed) {
      for (const m of made) if (m.status === 'fulfilled') fs.rmSync(m.value, { force: true });
      throw failed.reason;
    }
    exports = made.map((m) => () => Promise.resolve((m as PromiseFulfilledResult<string>).value));
  }
  const [first, ...rest] = exports;
  const file = await first();
  try {
    for (const next of rest) {
      const part = await next();
      try {
        await pipeline(fs.createReadStream(part), fs.createWriteStream(file, { flags: 'a' }));
      } finally {
        fs.rmSync(part, { force: true });
      }
    }
    return file;
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw err;
  }
}

/**
 * The integer keys bulk files name rows by when the sink asks (ListFields.importKeys). A
 * credential's is its chunk's sequence number and its place among the chunk's rows, so the worker
 * that shapes it and the thread that loads it agree without a map. A licensee without a licensee
 * key shares its credential's; keyed ones are numbered from KEYED_LICENSEES_FROM by the loading
 * thread; a jurisdiction's is its two letters.
 */
const CHUNK_ROWS = 2 ** 20;
export function credentialKey(seq: number, row: number): number {
  if (row >= CHUNK_ROWS) throw new Error(`a bulk chunk holds more than ${CHUNK_ROWS} rows`);
  return seq * CHUNK_ROWS + row;
}
export const KEYED_LICENSEES_FROM = 2 ** 45;
export function jurisdictionKey(code: string): number {
  if (!/^[A-Z]{2}$/.test(code)) throw new Error(`${code} is not a two-letter jurisdiction code`);
  return code.charCodeAt(0) * 256 + code.charCodeAt(1);
}

/** The LicenseCredential table's columns, in its order (copy-credentials reads them by position). */
export const CREDENTIAL_COLUMNS = [
  'id', 'state', 'license_number', 'license_number_display', 'license_type', 'license_type_display', 'status',
  'status_normalized', 'entity_type', 'full_name', 'first_name', 'middle_name', 'last_name', 'suffix', 'business_name',
  'issue_date', 'expiration_date', 'address_kind', 'address_line1', 'address_line2', 'address_city', 'address_county',
  'address_region', 'address_postal_code', 'address_country', 'source', 'snapshot_date', 'last_verified',
  'data_source_notes', 'f_full', 'f_first', 'f_last', 'f_business', 'f_city', 'sort_key', 'doc', 'row_hash', 'left_source_on',
];
/** One line of the credentials bulk file (see csvRow): the record's columns, with its document unless `doc` is false (an empty cell). */
export const credentialLine = (record: Row, doc = true) =>
  CREDENTIAL_COLUMNS.map((k) => csvCell(k === 'doc' ? (doc ? encodeDoc(record) : null) : record[k])).join(FIELD_SEPARATOR);
/** Its DATE columns. */
export const CREDENTIAL_DATES = ['issue_date', 'expiration_date', 'snapshot_date', 'left_source_on'];
/** The SUPERVISES table's columns, in its order (see create-links). */
export const LINK_COLUMNS = ['from', 'to', 'affiliate_role', 'relationship_type', 'effective_from', 'effective_to', 'source'];

/** Tabs part a list entry's fields and line breaks its entries: in a field they become spaces. */
export const ENTRY_BREAKS = /[\t\n\r]/g;

/** A field of a list entry: tabs and line breaks made spaces, null empty. */
export const entryField = (v: unknown) => (v == null ? '' : String(v).replace(ENTRY_BREAKS, ' '));

/** What a bulk sink keeps of a relationship beside its files (both engines' ListFields). */
export const relationshipListFields = (r: Record<string, unknown>) =>
  [r.relationship_type, r.effective_from, r.affiliate_role, r.effective_to].map(entryField).join('\t');
