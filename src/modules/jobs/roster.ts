import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { ValidationError, type ValidationIssue } from '../../errors.js';
import { toValidationIssues } from '../../http/validation.js';
import { BatchVerifyItem } from '../licensees/licensees.schemas.js';

/** Rows one roster may hold. */
export const MAX_ROSTER_ROWS = 100_000;
/** Problems a refused roster lists (their count is given beside them). */
const LISTED = 100;

/** One roster row as asked: a batch item. */
export interface RosterRow {
  state: string;
  license_number: string;
  name?: string;
  first_name?: string;
  last_name?: string;
}

/**
 * Header spellings, once lower-cased with each run of anything but letters and digits made one `_`
 * (so "License #" is `license`, "Lic. No." `lic_no`): the watchlist upload's, and those common
 * spreadsheet and CRM exports use.
 */
const COLUMN_NAMES: Record<keyof RosterRow, string[]> = {
  state: ['state', 'st', 'state_code', 'license_state', 'licence_state', 'licensing_state', 'jurisdiction'],
  license_number: [
    'license_number', 'licence_number', 'license', 'licence', 'license_no', 'licence_no', 'license_num', 'licence_num',
    'license_id', 'licence_id', 'lic_no', 'lic_number', 'lic_num', 'license_nbr', 'real_estate_license_number',
  ],
  name: ['name', 'full_name', 'fullname', 'licensee_name', 'agent_name', 'licensee'],
  first_name: ['first_name', 'firstname', 'first', 'given_name', 'agent_first_name'],
  last_name: ['last_name', 'lastname', 'last', 'surname', 'family_name', 'agent_last_name'],
};

const normalized = (h: string) => h.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');

/** Where each roster field is in a header row (absent: not there); throws when state or number is missing. */
export function rosterColumns(header: string[]): Partial<Record<keyof RosterRow, number>> {
  const names = header.map(normalized);
  const at: Partial<Record<keyof RosterRow, number>> = {};
  for (const [field, spellings] of Object.entries(COLUMN_NAMES) as [keyof RosterRow, string[]][]) {
    const i = names.findIndex((n) => spellings.includes(n));
    if (i >= 0) at[field] = i;
  }
  return at;
}

const headerProblem = (at: Partial<Record<keyof RosterRow, number>>) =>
  at.state === undefined || at.license_number === undefined
    ? `the first line must name the columns state and license_number (also read: ${COLUMN_NAMES.state.slice(1, 4).join(', ')}; ${COLUMN_NAMES.license_number.slice(1, 6).join(', ')}, ...)`
    : undefined;

/** A refusal of the whole roster: the first problems, and how many there are. */
function refused(issues: ValidationIssue[], rowsAtFault: number): ValidationError {
  const listed = issues.slice(0, LISTED);
  const summary: ValidationIssue = {
    loc: ['body'],
    msg: `${rowsAtFault.toLocaleString('en-US')} row${rowsAtFault === 1 ? '' : 's'} cannot be verified and nothing was accepted: fix them and send the roster again`,
    type: 'roster_invalid',
    ctx: { rows_at_fault: rowsAtFault, problems_listed: listed.length },
  };
  return new ValidationError([summary, ...listed]);
}

// Rows checked between yields to the event loop: a roster of 100,000 takes about half a second to
// check, which requests in flight should not wait behind.
const ROWS_PER_TURN = 2_000;

/** Checks each row with the batch item's rules; `where(i)` names row i in a problem (a CSV line, or its place in `rows`). */
async function checked(rows: unknown[], where: (i: number) => (string | number)[]): Promise<RosterRow[]> {
  const issues: ValidationIssue[] = [];
  let atFault = 0;
  const out: RosterRow[] = [];
  for (const [i, row] of rows.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise(setImmediate);
    const parsed = BatchVerifyItem.safeParse(row);
    if (parsed.success) {
      out.push(parsed.data as RosterRow);
      continue;
    }
    atFault += 1;
    if (issues.length < LISTED) issues.push(...toValidationIssues('body', parsed.error, row).map((issue) => ({ ...issue, loc: [...where(i), ...issue.loc.slice(1)] })));
  }
  if (atFault) throw refused(issues, atFault);
  return out;
}

const tooMany = (n: number, loc: (string | number)[]) =>
  new ValidationError([{ loc, msg: `a roster holds at most ${MAX_ROSTER_ROWS.toLocaleString('en-US')} rows (this one holds ${n.toLocaleString('en-US')}): split it`, type: 'too_long', ctx: { max: MAX_ROSTER_ROWS } }]);

// Bytes parsed between yields to the event loop: a 5 MB roster read at once held it for 250 ms.
const BYTES_PER_TURN = 64 * 1024;

/** The file's records with their line numbers, parsed a slice per event-loop turn. */
async function csvRecords(data: Buffer): Promise<{ record: string[]; info: { lines: number } }[]> {
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, trim: true, to: MAX_ROSTER_ROWS + 2, info: true });
  const rows: { record: string[]; info: { lines: number } }[] = [];
  parser.on('readable', () => {
    for (let r = parser.read(); r !== null; r = parser.read()) rows.push(r);
  });
  const done = finished(parser);
  for (let at = 0; at < data.length && !parser.destroyed && parser.writable; at += BYTES_PER_TURN) {
    parser.write(data.subarray(at, at + BYTES_PER_TURN));
    await new Promise(setImmediate);
  }
  if (parser.writable) parser.end();
  await done;
  return rows;
}

/**
 * A CSV roster: a header naming state and licence number (and optionally name, or first and last
 * name), then a row per licence; other columns are ignored, blank lines skipped. Problems name the
 * file's line (`["body", "line", 7, "state"]`).
 */
export async function parseRosterCsv(data: Buffer | string): Promise<RosterRow[]> {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = await csvRecords(typeof data === 'string' ? Buffer.from(data) : data);
  } catch (err) {
    throw new ValidationError([{ loc: ['body'], msg: `the file is not CSV that can be read: ${(err as Error).message}`, type: 'csv_invalid' }]);
  }
  if (rows.length < 2) throw new ValidationError([{ loc: ['body'], msg: rows.length ? 'the file has a header and no rows' : 'the file is empty', type: 'too_short', ctx: { min: 1 } }]);
  const at = rosterColumns(rows[0].record);
  const problem = headerProblem(at);
  if (problem) throw new ValidationError([{ loc: ['body', 'line', 1], msg: problem, type: 'missing', input: rows[0].record.slice(0, 20) }]);
  if (rows.length > MAX_ROSTER_ROWS + 1) throw tooMany(rows.length - 1, ['body']);
  const body = rows.slice(1);
  const objects = body.map(({ record }) => {
    const o: Record<string, string> = {};
    for (const [field, i] of Object.entries(at)) {
      // An empty name cell is no name, as a missing column is.
      const v = record[i!] ?? '';
      if (v !== '' || field === 'state' || field === 'license_number') o[field] = v;
    }
    return o;
  });
  return checked(objects, (i) => ['body', 'line', body[i].info.lines]);
}

/** A JSON roster's rows (`rows` of the body), checked as batch items are. */
export function checkRosterRows(rows: unknown[]): Promise<RosterRow[]> {
  if (rows.length > MAX_ROSTER_ROWS) throw tooMany(rows.length, ['body', 'rows']);
  return checked(rows, (i) => ['body', 'rows', i]);
}
