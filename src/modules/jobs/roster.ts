import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
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

export type CsvRecord = { record: string[]; info: { lines: number } };

const invalid = (msg: string, loc: (string | number)[] = ['body'], ctx?: Record<string, unknown>) =>
  new ValidationError([{ loc, msg, type: 'csv_invalid', ...(ctx ? { ctx } : {}) }]);

/**
 * An uploaded file as UTF-8: UTF-8 as it is (a BOM dropped), UTF-16 by its BOM, the `charset` the
 * sender named, else Windows-1252 (state files such as CA's are): a byte that is not UTF-8 never
 * becomes U+FFFD. Refuses what is not text (a spreadsheet workbook, say) and JSON sent as CSV.
 */
export function csvText(data: Buffer, charset?: string): { bytes: Buffer; text: string; encoding: string } {
  let encoding = charset?.toLowerCase().replace(/^(utf8)$/, 'utf-8');
  if (data[0] === 0xff && data[1] === 0xfe) encoding = 'utf-16le';
  else if (data[0] === 0xfe && data[1] === 0xff) encoding = 'utf-16be';
  if (encoding && encoding !== 'utf-8' && !iconv.encodingExists(encoding)) throw invalid(`the charset ${JSON.stringify(charset)} is not one this service reads: send UTF-8 (or name windows-1252, iso-8859-1, utf-16)`, ['header', 'Content-Type']);
  if (data.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) throw invalid('the file is a spreadsheet workbook (xlsx), not CSV: save it as CSV (UTF-8) and upload that');
  let text: string;
  if (!encoding || encoding === 'utf-8') {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
      encoding = 'utf-8';
    } catch {
      if (encoding === 'utf-8') throw invalid('the file is not UTF-8, as its Content-Type says: send it as UTF-8, or name its charset (charset=windows-1252)');
      encoding = 'windows-1252';
      text = iconv.decode(data, encoding);
    }
  } else text = iconv.decode(data, encoding, { stripBOM: true });
  if (text.includes('\u0000')) throw invalid('the file holds NUL bytes: it is not CSV text (a spreadsheet? save it as CSV)');
  if (/^\s*[[{]/.test(text)) throw invalid('the body is JSON, not CSV: send it with Content-Type: application/json', ['body'], { received: 'json' });
  return { bytes: encoding === 'utf-8' ? data : Buffer.from(text), text, encoding };
}

/** What a CSV parser's error means, on the file's line. */
function csvProblem(err: Error & { code?: string; lines?: number }): ValidationError {
  const line = err.lines;
  // relax_quotes reads a quote inside an unquoted field as text, so no opening-quote error comes.
  const afterClosing = 'a quoted field goes on after its closing quote: quote the whole field and double each quote inside it ("")';
  const what: Record<string, string> = {
    CSV_QUOTE_NOT_CLOSED: 'a quoted field opened here is never closed: close the quote, or double a quote inside a quoted field ("")',
    CSV_INVALID_CLOSING_QUOTE: afterClosing,
    CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: afterClosing,
    CSV_MAX_RECORD_SIZE: 'a record is longer than a roster row can be (a quote left open?)',
  };
  const msg = what[err.code ?? ''] ?? `the file is not CSV that can be read: ${err.message}`;
  return invalid(line ? `line ${line}: ${msg}` : msg, line ? ['body', 'line', line] : ['body'], { code: err.code ?? null });
}

/**
 * The file's records with their line numbers, parsed a slice per event-loop turn. Lines end in
 * CRLF, LF or CR, mixed; a quote inside an unquoted field is part of it (`Laura "Lolly" Harris`).
 * A file that cannot be parsed is a ValidationError naming its line.
 */
export async function csvRecords(bytes: Buffer, maxRecords: number): Promise<CsvRecord[]> {
  const parser = parse({
    bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, trim: true, to: maxRecords,
    info: true, record_delimiter: ['\r\n', '\n', '\r'], max_record_size: 1 << 20,
  });
  const rows: CsvRecord[] = [];
  let failure: (Error & { code?: string; lines?: number }) | undefined;
  parser.on('readable', () => {
    for (let r = parser.read(); r !== null; r = parser.read()) rows.push(r);
  });
  // The parser's error is taken here, never left to reject while the loop below waits a turn.
  parser.on('error', (err) => (failure ??= err));
  const done = finished(parser).catch((err) => (failure ??= err));
  for (let at = 0; at < bytes.length && !failure && parser.writable; at += BYTES_PER_TURN) {
    parser.write(bytes.subarray(at, at + BYTES_PER_TURN));
    await new Promise(setImmediate);
  }
  if (!failure && parser.writable) parser.end();
  await done;
  if (failure) throw csvProblem(failure);
  return rows;
}

/**
 * A CSV roster: a header naming state and licence number (and optionally name, or first and last
 * name), then a row per licence; other columns are ignored, blank lines skipped. Problems name the
 * file's line (`["body", "line", 7, "state"]`). Returns the rows and the file as text.
 */
export async function parseRosterCsv(data: Buffer, charset?: string): Promise<{ rows: RosterRow[]; text: string }> {
  if (!data.length) throw new ValidationError([{ loc: ['body'], msg: 'the file is empty: send a header line naming state and license_number, then a row per licence', type: 'too_short', ctx: { min: 1 } }]);
  const { bytes, text } = csvText(data, charset);
  const rows = await csvRecords(bytes, MAX_ROSTER_ROWS + 2);
  if (!rows.length) throw new ValidationError([{ loc: ['body'], msg: 'the file is empty', type: 'too_short', ctx: { min: 1 } }]);
  const at = rosterColumns(rows[0].record);
  const problem = headerProblem(at);
  if (problem) throw new ValidationError([{ loc: ['body', 'line', 1], msg: problem, type: 'missing', input: rows[0].record.slice(0, 20) }]);
  if (rows.length < 2) throw new ValidationError([{ loc: ['body'], msg: 'the file has a header and no rows', type: 'too_short', ctx: { min: 1 } }]);
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
  return { rows: await checked(objects, (i) => ['body', 'line', body[i].info.lines]), text };
}

/** A JSON roster's rows (`rows` of the body), checked as batch items are. */
export function checkRosterRows(rows: unknown[]): Promise<RosterRow[]> {
  if (rows.length > MAX_ROSTER_ROWS) throw tooMany(rows.length, ['body', 'rows']);
  return checked(rows, (i) => ['body', 'rows', i]);
}
