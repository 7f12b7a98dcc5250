import iconv from 'iconv-lite';

/**
 * Files a person uploads as CSV that are broken, or only unusual: what each upload path must
 * answer with a 4xx naming the line and the fault, or read right, and never die of.
 * `rows`: the roster rows a file that is read holds; `error`: the refusal's first problem.
 */
export interface CsvCase {
  name: string;
  bytes: Buffer;
  rows?: number;
  error?: { loc?: (string | number)[]; type: string; msg: RegExp };
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

export const CSV_CORPUS: CsvCase[] = [
  { name: 'a quote inside an unquoted state', bytes: utf8('state,license_number\nT"X,1\n'), error: { loc: ['body', 'line', 2, 'state'], type: 'string_pattern_mismatch', msg: /two-letter state code/ } },
  { name: 'a nickname in quotes inside an unquoted name', bytes: utf8('state,license_number,name\nTX,763827-SA,Laura "Lolly" Harris\n'), rows: 1 },
  { name: 'a JSON body sent as CSV', bytes: utf8('{"rows":[{"state":"TX","license_number":"763827-SA"}]}'), error: { loc: ['body'], type: 'csv_invalid', msg: /JSON, not CSV.*application\/json/ } },
  { name: 'a UTF-8 byte order mark', bytes: utf8('\uFEFFstate,license_number\nTX,763827-SA\n'), rows: 1 },
  { name: 'CRLF and LF mixed', bytes: utf8('state,license_number\r\nTX,763827-SA\nTX,763828-SA\r\nTX,100001-B\n'), rows: 3 },
  { name: 'CR alone (old Mac exports)', bytes: utf8('state,license_number\rTX,763827-SA\rTX,763828-SA\r'), rows: 2 },
  { name: 'a quoted newline in a column that is not read', bytes: utf8('state,license_number,notes\nTX,763827-SA,"two\nlines"\nTX,763828-SA,x\n'), rows: 2 },
  { name: 'an unclosed quote at the end', bytes: utf8('state,license_number\nTX,763827-SA\nTX,"763828-SA\n'), error: { loc: ['body', 'line', 3], type: 'csv_invalid', msg: /line 3: a quoted field opened here is never closed/ } },
  { name: 'text after a closing quote', bytes: utf8('state,license_number\n"TX"X,1\n'), error: { loc: ['body', 'line', 2], type: 'csv_invalid', msg: /goes on after its closing quote/ } },
  { name: 'a Windows-1252 file', bytes: Buffer.concat([utf8('state,license_number,name\nTX,763827-SA,'), iconv.encode('José Peña', 'win1252'), utf8('\n')]), rows: 1 },
  { name: 'a UTF-16 file with its byte order mark', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('state,license_number\r\nTX,763827-SA\r\n', 'utf-16le')]), rows: 1 },
  { name: 'a spreadsheet workbook', bytes: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64)]), error: { loc: ['body'], type: 'csv_invalid', msg: /workbook \(xlsx\), not CSV/ } },
  { name: 'a header and no rows', bytes: utf8('state,license_number\n'), error: { loc: ['body'], type: 'too_short', msg: /header and no rows/ } },
  { name: 'no header', bytes: utf8('TX,763827-SA\n'), error: { loc: ['body', 'line', 1], type: 'missing', msg: /must name the columns state and license_number/ } },
];
