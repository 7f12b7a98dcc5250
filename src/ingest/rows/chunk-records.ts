import { parse } from 'csv-parse/sync';
import { malformedRecord } from './canonical-rows.js';

export interface ChunkRecord {
  record: Record<string, string>;
  /** File line where the record ends. */
  line: number;
}

/**
 * The CSV records of a chunk of a file (whole records, after the header), with their file lines;
 * malformed ones go to `rejects`. Without a quote or a carriage return CSV has no escapes, so such
 * a chunk is split on line breaks and commas, far cheaper than csv-parse (docs/decisions/0008). Any
 * other chunk, and one with a line of the wrong width, goes to csv-parse, whose messages the
 * rejects keep.
 */
export function chunkRecords(text: string, header: string[], firstLine: number, rejects: { line: number; reason: string }[]): ChunkRecord[] {
  return splitRecords(text, header, firstLine) ?? parseRecords(text, header, firstLine, rejects);
}

function splitRecords(text: string, header: string[], firstLine: number): ChunkRecord[] | null {
  if (text.includes('"') || text.includes('\r')) return null;
  const out: ChunkRecord[] = [];
  const lines = text.split('\n');
  const width = header.length;
  for (let i = 0; i < lines.length; i++) {
    // csv-parse's skip_empty_lines (and the end after the last line break).
    if (!lines[i]) continue;
    const cells = lines[i].split(',');
    if (cells.length !== width) return null;
    const record: Record<string, string> = {};
    for (let j = 0; j < width; j++) record[header[j]] = cells[j];
    out.push({ record, line: firstLine + i });
  }
  return out;
}

function parseRecords(text: string, header: string[], firstLine: number, rejects: { line: number; reason: string }[]): ChunkRecord[] {
  let lastLine = 0;
  return parse(text, {
    columns: header,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (record, context) => {
      lastLine = context.lines;
      return { record, line: firstLine - 1 + context.lines };
    },
    on_skip: (err) => {
      const skipped = malformedRecord(err, lastLine);
      rejects.push({ ...skipped, line: firstLine - 1 + skipped.line });
      if (err?.lines) lastLine = Number(err.lines);
      return undefined;
    },
  }) as unknown as ChunkRecord[];
}
