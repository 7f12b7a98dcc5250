import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { chunkRecords } from '../../src/ingest/rows/chunk-records.js';

const header = ['state', 'license_number', 'full_name'];

/** What csv-parse alone reads from the chunk, with each record's end line counted from firstLine. */
function parsed(text: string, firstLine: number) {
  return (
    parse(text, { columns: header, skip_empty_lines: true, info: true, relax_column_count: true }) as { record: Record<string, string>; info: { lines: number } }[]
  ).map(({ record, info }) => ({ record, line: firstLine - 1 + info.lines }));
}

describe('the records of a chunk', () => {
  const plain = [
    'FL,1,ANA LOPEZ\nFL,2,BO LEE\n',
    'FL,1,ANA LOPEZ\n\nFL,2, BO LEE \n\n\nTX,3,\n',
    'FL,1,ANA LOPEZ\nFL,2,BO LEE',
    ',,\nFL,2,BO LEE\n',
    '\n',
    '',
  ];

  it('when a chunk has no quote then each record and its file line are what csv-parse reads', () => {
    for (const text of plain) {
      const rejects: { line: number; reason: string }[] = [];
      expect(chunkRecords(text, header, 40, rejects), JSON.stringify(text)).toEqual(parsed(text, 40));
      expect(rejects).toEqual([]);
    }
  });

  it('when a chunk has quotes, carriage returns or a line of the wrong width then csv-parse reads it and reports the bad line', () => {
    const quoted = 'FL,1,"LOPEZ, ANA"\nFL,2,"BO\nLEE"\nFL,3,CY\n';
    expect(chunkRecords(quoted, header, 10, [])).toEqual(parsed(quoted, 10));
    expect(chunkRecords(quoted, header, 10, []).map((r) => r.line)).toEqual([10, 12, 13]);
    const crlf = 'FL,1,ANA\r\nFL,2,BO\r\n';
    expect(chunkRecords(crlf, header, 2, [])).toEqual([
      { record: { state: 'FL', license_number: '1', full_name: 'ANA' }, line: 2 },
      { record: { state: 'FL', license_number: '2', full_name: 'BO' }, line: 3 },
    ]);
    const rejects: { line: number; reason: string }[] = [];
    const wide = 'FL,1,ANA\nFL,2,BO,EXTRA\nFL,3,CY\n';
    expect(chunkRecords(wide, header, 5, rejects).map((r) => [r.record.license_number, r.line])).toEqual([
      ['1', 5],
      ['3', 7],
    ]);
    expect(rejects).toEqual([{ line: 6, reason: 'malformed CSV: Invalid Record Length: columns length is 3, got 4' }]);
  });
});
