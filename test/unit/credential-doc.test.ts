import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { decodeDoc, DOC_FIELDS, encodeDoc } from '../../src/graph/credential-doc.js';
import { CredentialRow } from '../../src/ingest/rows/canonical-rows.js';
import { credentialRecord } from '../../src/ingest/rows/import-records.js';

describe("LadybugDB's credential document", () => {
  it('when a doc is encoded then it is a positional array that decodes to the same fields, and an object doc of older data reads as it is', () => {
    const fields = { id: 'x', state: 'TX', license_number: '1', full_name: 'A "B", C', data_source_notes: ['n1'], snapshot_date: '2026-11-01', last_verified: null };
    const text = encodeDoc(fields);
    expect(Array.isArray(JSON.parse(text))).toBe(true);
    expect(text).not.toContain('"license_number"');
    const back = decodeDoc(text);
    expect(back).toMatchObject(fields);
    expect(back.address_line1).toBeNull();
    expect(decodeDoc(JSON.stringify({ id: 'old', state: 'FL' }))).toEqual({ id: 'old', state: 'FL' });
  });

  it('when every field of a doc holds its own value then decoding gives each field back under its own name, in the documented order', () => {
    const fields = Object.fromEntries(DOC_FIELDS.map((k, i) => [k, k === 'data_source_notes' ? [`note ${i}`] : `value ${i}`]));
    const back = decodeDoc(encodeDoc(fields));
    expect(back).toEqual(fields);
    expect(Object.keys(back)).toEqual([...DOC_FIELDS]);
  });

  it('when a canonical row becomes a record then its document, row hash and sort key are those graphs written before hold', () => {
    // Literals from the release before the document moved out of ingest: a change here would
    // show every row of a stored graph as changed at its next refresh.
    const [raw] = parse(fs.readFileSync(new URL('../fixtures/small/credentials.csv', import.meta.url)), { columns: true }) as Record<string, string>[];
    const record = credentialRecord(CredentialRow.parse(raw), new Date('2026-11-01T07:00:00Z'));
    expect(record.row_hash).toBe('lTErJ8Fi3_RgBNWrN7Y9_Dh9YvA');
    expect(record.sort_key).toBe('acme realty llc\u0001100001-B');
    expect(encodeDoc(record)).toBe(
      '[null,"f0a77b2d-3837-5c12-a917-08b06e35020a","TX","100001-B","100001-B","brokerage","Broker Company","Active","active","business","ACME REALTY LLC",null,null,null,null,"ACME REALTY LLC","2001-05-01","2027-05-31","mailing","1 Main St","Suite 5","Austin","Travis","TX","78701","US","fixture","2026-11-01","2026-11-01T06:00:00.000Z",["Source: fixture, snapshot of 2026-11-01"]]',
    );
  });
});
