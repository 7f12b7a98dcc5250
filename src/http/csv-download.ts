import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Response } from 'express';

/**
 * Streams rows as a CSV download, with back-pressure: memory holds what the source reads at once
 * (a page), not the export. The first row is read before anything is sent, so a store that cannot
 * answer is a 503 (or a 404), not a cut download. Cells a spreadsheet would run as formulas are escaped.
 */
export async function sendCsv<T>(res: Response, rows: AsyncIterable<T>, o: { filename: string; columns: readonly string[]; line: (row: T) => Record<string, unknown> }): Promise<void> {
  const it = rows[Symbol.asyncIterator]();
  const first = await it.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  res.type('text/csv; charset=utf-8').attachment(o.filename);
  const lines = new Transform({ objectMode: true, transform: (r: T, _e, done) => done(null, o.line(r)) });
  await pipeline(Readable.from(all()), lines, stringify({ header: true, columns: [...o.columns], escape_formulas: true, cast: { boolean: (v) => String(v) } }), res);
}
