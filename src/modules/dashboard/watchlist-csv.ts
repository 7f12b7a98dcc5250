import { ValidationError } from '../../errors.js';
import { stateCodeProblem } from '../../http/common.schemas.js';
import { csvRecords, csvText, rosterColumns, type CsvRecord } from '../jobs/roster.js';

/** Rows one upload may hold. */
export const UPLOAD_ROWS = 10_000;

export interface WatchlistCsv {
  items: { state: string; license_number: string }[];
  /** Rows left out, with their line numbers (as counted in the file). */
  problems: { line: number; reason: string }[];
}

/**
 * A watchlist upload: a CSV with a header naming `state` and `license_number` in any of the
 * spellings a roster takes (jobs/roster.ts: `License #`, `Lic No`, `ST`...; other columns
 * ignored). Throws with what is wrong when the file as a whole cannot be read.
 */
export async function parseWatchlistCsv(data: Buffer): Promise<WatchlistCsv> {
  let rows: CsvRecord[];
  try {
    rows = await csvRecords(csvText(data).bytes, UPLOAD_ROWS + 2);
  } catch (err) {
    if (err instanceof ValidationError) throw new Error(err.issues[0].msg);
    throw err;
  }
  if (!rows.length) throw new Error('the file is empty');
  const { state: stateAt, license_number: numberAt } = rosterColumns(rows[0].record);
  if (stateAt === undefined || numberAt === undefined) throw new Error('the first line must name the columns state and license_number');
  if (rows.length > UPLOAD_ROWS + 1) throw new Error(`one upload holds at most ${UPLOAD_ROWS.toLocaleString('en-US')} licences: split the file`);
  const out: WatchlistCsv = { items: [], problems: [] };
  for (const { record, info } of rows.slice(1)) {
    const line = info.lines;
    const state = record[stateAt] ?? '';
    const number = record[numberAt] ?? '';
    const problem = stateCodeProblem(state);
    if (problem) out.problems.push({ line, reason: `${JSON.stringify(state)} ${problem}` });
    else if (!number || number.length > 128) out.problems.push({ line, reason: number ? 'the licence number is longer than 128 characters' : 'no licence number' });
    else out.items.push({ state: state.toUpperCase(), license_number: number });
  }
  return out;
}
