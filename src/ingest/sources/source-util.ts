import fs from 'node:fs';
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

/**
 * Streams a delimited file as records with their line numbers and raw text, decoding the
 * encoding and dropping stray NUL bytes; malformed records are yielded as errors.
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
): AsyncGenerator<{ line: number; raw: string; values?: Record<string, string>; error?: string }> {
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
      } as Options),
    );
  parser.on('skip', (err: Error & { lines?: number; record?: unknown; raw?: string }) =>
    errors.push({
      line: err.lines ?? 0,
      message: err.message,
      raw: err.raw ?? (Array.isArray(err.record) ? err.record.join(options.delimiter) : ''),
    }),
  );
  for await (const r of parser as AsyncIterable<{ record: Record<string, string>; raw: string; info: { lines: number } }>) {
    while (errors.length) {
      const e = errors.shift()!;
      yield { line: e.line, raw: e.raw, error: `malformed line: ${e.message}` };
    }
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.record)) values[k] = (v ?? '').replace(/\u0000/g, '');
    yield { line: r.info.lines, raw: r.raw.replace(/\u0000/g, '').replace(/\r?\n$/, ''), values };
  }
  for (const e of errors) yield { line: e.line, raw: e.raw, error: `malformed line: ${e.message}` };
}

/** The first bytes of a file as latin-1 text, for format detection. */
export function fileHead(file: string, bytes = 4096): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The loop every adapter shares: unreadable records pass through as errors, the rest go through
 * `map`, whose exceptions become the row's error.
 */
export async function* mapRecords(
  records: AsyncIterable<{ line: number; raw: string; values?: Record<string, string>; error?: string }>,
  map: (values: Record<string, string>) => Pick<SourceRow, 'credential' | 'links'>,
): AsyncGenerator<SourceRow> {
  for await (const r of records) {
    if (r.error || !r.values) {
      yield { line: r.line, raw: r.raw, error: r.error };
      continue;
    }
    try {
      yield { line: r.line, raw: r.raw, ...map(r.values) };
    } catch (err) {
      yield { line: r.line, raw: r.raw, error: (err as Error).message };
    }
  }
}
