import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { parse, type Options } from 'csv-parse';
import iconv from 'iconv-lite';
import type { SourceRow } from './source-types.js';

/** MM/DD/YYYY (optionally followed by a time), YYYYMMDD or YYYY-MM-DD -> YYYY-MM-DD; '' -> ''. Throws on anything else. */
export function isoDate(value: string | undefined): string {
  const v = (value ?? '').trim();
  if (!v) return '';
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s.*)?$/.exec(v);
  if (m) return `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  throw new Error(`unreadable date "${v}"`);
}

export const clean = (v: string | undefined) => (v ?? '').replace(/\s+/g, ' ').trim();

/** "LAST, FIRST MIDDLE" (FL, TX key name) into parts. */
export function splitCommaName(name: string): { last: string; first: string; middle: string } {
  const [last, rest = ''] = name.split(',', 2).map(clean);
  const [first = '', ...middle] = rest.split(' ').filter(Boolean);
  return { last, first, middle: middle.join(' ') };
}

/** "LAST FIRST M" (NY, no comma) into parts: the first word is the last name. */
export function splitSpaceName(name: string): { last: string; first: string; middle: string } {
  const [last = '', first = '', ...middle] = clean(name).split(' ');
  return { last, first, middle: middle.join(' ') };
}

type RawRecord = { line: number; raw: string; values?: Record<string, string>; error?: string };

/**
 * Streams a delimited file as batches of records with their line numbers and raw text, decoding
 * the encoding and dropping stray NUL bytes; malformed records are yielded as errors. Batches, not
 * single records: an async step per record costs more than mapping it.
 */
export async function* delimitedRecords(
  file: string,
  options: {
    delimiter: string;
    encoding: string;
    /** Names, true for a header row, or false for arrays keyed '0', '1', ... of any length. */
    columns: string[] | boolean;
    quote: boolean;
    onBytes?: (bytes: number) => void;
  },
): AsyncGenerator<RawRecord[]> {
  const input = fs.createReadStream(file);
  let bytes = 0;
  input.on('data', (chunk) => {
    bytes += chunk.length;
    options.onBytes?.(bytes);
  });
  const errors: { line: number; message: string; raw: string }[] = [];
  const parser = input
    .pipe(iconv.decodeStream(options.encoding))
    .pipe(
      parse({
        delimiter: options.delimiter,
        // Files are seen with CRLF, LF or both (a file appended to on another system).
        record_delimiter: ['\r\n', '\n', '\r'],
        columns: options.columns,
        relax_column_count: options.columns === false,
        quote: options.quote ? '"' : false,
        bom: true,
        raw: true,
        info: true,
        relax_quotes: true,
        skip_empty_lines: true,
        skip_records_with_error: true,
        highWaterMark: 1024,
      } as Options),
    );
  parser.on('skip', (err: Error & { lines?: number; record?: unknown; raw?: string }) =>
    errors.push({
      line: err.lines ?? 0,
      message: err.message,
      raw: (err.raw ?? (Array.isArray(err.record) ? err.record.join(options.delimiter) : '')).replace(/\r?\n$/, ''),
    }),
  );
  const malformed = (e: (typeof errors)[number]): RawRecord => ({ line: e.line, raw: e.raw, error: `malformed line: ${e.message}` });
  for await (const records of readBatches<{ record: Record<string, string>; raw: string; info: { lines: number } }>(parser)) {
    const batch = errors.splice(0).map(malformed);
    for (const r of records) {
      const values: Record<string, string> = {};
      for (const k in r.record) values[k] = (r.record[k] ?? '').replace(/\u0000/g, '');
      batch.push({ line: r.info.lines, raw: r.raw.replace(/\u0000/g, '').replace(/\r?\n$/, ''), values });
    }
    yield batch;
  }
  if (errors.length) yield errors.map(malformed);
}

/** What an object-mode stream has buffered, as arrays, until it ends. */
async function* readBatches<T>(stream: Readable): AsyncGenerator<T[]> {
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => wake?.();
  stream.on('readable', notify);
  stream.on('end', () => ((ended = true), notify()));
  stream.on('error', (err) => ((failure = err), notify()));
  for (;;) {
    const batch: T[] = [];
    for (let item = stream.read(); item !== null; item = stream.read()) batch.push(item as T);
    if (batch.length) yield batch;
    else if (failure) throw failure;
    else if (ended) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

/** The first bytes of a file as latin-1 text, without a UTF-8 byte order mark, for format detection. */
export function fileHead(file: string, bytes = 4096): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, 0);
    const bom = n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    return buf.subarray(bom, n).toString('latin1');
  } finally {
    fs.closeSync(fd);
  }
}

/** A row an adapter refuses, with the reason the rejects file gives. */
export class RowRejection extends Error {
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * The loop every adapter shares: unreadable records pass through as errors, the rest go through
 * `map`, whose exceptions become the row's error (and a RowRejection's reason its reason).
 */
export async function* mapRecords(
  records: AsyncIterable<RawRecord[]>,
  map: (values: Record<string, string>) => Pick<SourceRow, 'credential' | 'links'>,
): AsyncGenerator<SourceRow[]> {
  for await (const batch of records) {
    yield batch.map((r) => {
      if (r.error || !r.values) return { line: r.line, raw: r.raw, error: r.error };
      try {
        return { line: r.line, raw: r.raw, ...map(r.values) };
      } catch (err) {
        return { line: r.line, raw: r.raw, error: (err as Error).message, reason: err instanceof RowRejection ? err.reason : undefined };
      }
    });
  }
}
