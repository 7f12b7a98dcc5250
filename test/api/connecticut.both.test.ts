import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { refreshOf } from '../../src/compose/index.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { ChangeFeed } from '../../src/modules/changes/changes.schemas.js';
import { CoverageResponse, SourceItem, StateItem } from '../../src/modules/coverage/coverage.schemas.js';
import { BatchVerifyResponse, LicenseeListResponse, LicenseeResponse, VerifyResponse } from '../../src/modules/licensees/licensees.schemas.js';
import { AffiliatesResponse, AffiliationsResponse, HierarchyResponse, SupervisorsResponse } from '../../src/modules/relationships/relationships.schemas.js';
import { files, useApp } from '../helpers/graph.js';
import { body } from '../helpers/http.js';
import { SHARED_SOURCES, hasShared, tempFile } from '../helpers/source-files.js';

// Connecticut's salesperson-to-broker file (ct-dcp-supervision) through `refresh` and the API:
// the real sample where ../shared has it, and files written from its documented layout.

const HEADER = '"real_estate_salesperson","salespersoncredential","real_estate_broker","broker_credential"';
const ctFile = (...rows: string[]) => tempFile('6tja-6vdt.csv', `${[HEADER, ...rows].join('\n')}\n`);
const rejectsOf = (file: string | null) => (file ? (parse(fs.readFileSync(file), { columns: true }) as { line: string; reason: string; detail: string; raw_row: string }[]) : []);

function useConnecticut() {
  const ctx = useApp();
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-ct-'));
  const ingest = (file: string, snapshot: string) =>
    refresh(refreshOf(ctx.graph, files, ctx.side.clock, ctx.side.changes.log), { files: [file], format: resolveFormat(file), snapshot, rejectsDir });
  const licensee = async (number: string) => body(await ctx.api.get(`/api/v1/licensees/CT/${number}`), LicenseeResponse).data;
  const supervisors = async (number: string) => body(await ctx.api.get(`/api/v1/licensees/CT/${number}/supervisors`), SupervisorsResponse).data;
  const affiliates = async (number: string, query = '') => body(await ctx.api.get(`/api/v1/licensees/CT/${number}/affiliates${query}`), AffiliatesResponse);
  const feed = async () => body(await ctx.api.get('/api/v1/licensees/changes?state=CT&limit=1000'), ChangeFeed).data;
  return { ctx, ingest, licensee, supervisors, affiliates, feed };
}

describe.skipIf(!hasShared)('the real Connecticut sample (../shared; skipped in a clone without it)', () => {
  const { ctx, ingest, licensee, supervisors, affiliates, feed } = useConnecticut();

  it('when its 254 rows are ingested then each salesperson and each broker they name is a credential, with a supervising_broker edge from broker to salesperson', async () => {
    const summary = await ingest(path.join(SHARED_SOURCES, 'CT/6tja-6vdt-sample.csv'), '2020-12-15');
    // 254 salespersons and the 128 brokers they name; two rows name no broker.
    expect(summary).toMatchObject({ source: 'ct-dcp', state: 'CT', format: 'ct-dcp-supervision', rows_read: 254, inserted: 382, rejected: 0, links_rejected: 0, edges_opened: 252, rejects_file: null });

    const agent = await licensee('res.0751803');
    expect(agent).toMatchObject({
      full_name: 'CAMILLE A ADDARIO',
      first_name: 'CAMILLE',
      middle_name: 'A',
      last_name: 'ADDARIO',
      license_number: 'RES.0751803',
      license_number_display: 'RES.0751803',
      license_type: 'salesperson',
      license_type_display: 'Real Estate Salesperson',
      status: 'Active',
      state: 'CT',
      brokerage: 'WILLIAM PITT REAL ESTATE LLC',
      brokerage_source: 'verified_supervision',
      brokerage_confidence: 'verified',
      supervising_brokerages: ['WILLIAM PITT REAL ESTATE LLC'],
      supervising_brokerages_detail: [{ name: 'WILLIAM PITT REAL ESTATE LLC', license_number: 'REB.0751698', address: null }],
      employment_type: 'supervised',
      relationship_coverage: 'verified_graph_partial',
      supervision_empty_reason: null,
      current_affiliate_roles: ['salesperson'],
      last_verified: '2020-12-15T00:00:00.000Z',
      address: null,
    });
    expect(await supervisors('RES.0751803')).toEqual([
      expect.objectContaining({ license_number: 'REB.0751698', relationship_type: 'supervising_broker', affiliate_role: 'salesperson', effective_from: '2020-12-15', effective_to: null }),
    ]);
    const hierarchy = body(await ctx.api.get(`/api/v1/license-credentials/${agent.id}/hierarchy`), HierarchyResponse);
    expect(hierarchy.levels.map((l) => [l.license_number, l.relationship_type])).toEqual([['REB.0751698', 'supervising_broker']]);
    expect(hierarchy).toMatchObject({ terminated_by: 'top', reached_top: true });

    // A firm: its affiliates are every salesperson naming it (32 in the sample).
    const firm = await licensee('REB.0754319');
    expect(firm).toMatchObject({
      full_name: 'CTRE LLC',
      business_name: 'CTRE LLC',
      first_name: null,
      license_type: 'brokerage',
      license_type_display: 'Real Estate Broker',
      status: 'Active',
      supervision_empty_reason: 'partial_coverage',
      employment_type: null,
    });
    expect(firm.data_source_notes).toContain('Published by the source only as the supervising broker of salespersons: no licence dates or address');
    const page = await affiliates('REB.0754319', '?per_page=100');
    expect(page.meta.total).toBe(32);
    expect(page.data.every((a) => a.relationship_type === 'supervising_broker' && a.affiliate_role === 'salesperson')).toBe(true);
    expect(page.data.map((a) => a.license_number)).toContain('RES.0793972');

    // A person broker, named as published; the salesperson's designated broker is that person.
    expect(await licensee('REB.0531461')).toMatchObject({ full_name: 'DENISE M PEPE-BALISCIANO', first_name: 'DENISE', middle_name: 'M', last_name: 'PEPE-BALISCIANO', license_type: 'broker', business_name: null });
    expect((await licensee('RES.0802000')).designated_broker).toMatchObject({ name: 'DENISE M PEPE-BALISCIANO', license_number: 'REB.0531461' });
    expect(await licensee('RES.0784046')).toMatchObject({ first_name: 'RENE', middle_name: 'N', last_name: 'BARBEAU', full_name: 'RENE N BARBEAU JR' });

    // A row with no broker: the file says this salesperson has none, which is the source's word.
    expect(await licensee('RES.0804436')).toMatchObject({ full_name: 'KASHAINE FERRYMAN', brokerage: null, supervising_brokerages: [], employment_type: null, supervision_empty_reason: 'authoritative_absence' });
    expect(await supervisors('RES.0804436')).toEqual([]);

    const byBrokerage = body(await ctx.api.get('/api/v1/licensees?state=CT&brokerage=ctre&per_page=1'), LicenseeListResponse);
    expect(byBrokerage.meta.total).toBe(32);
    const byName = body(await ctx.api.get('/api/v1/licensees?state=ct&name=camille%20addario'), LicenseeListResponse);
    expect(byName.data.map((l) => l.license_number)).toEqual(['RES.0751803']);

    // Verification matches the canonical number: any letter case, spaces around it.
    const verified = body(await ctx.api.get('/api/v1/licensees/verify?state=ct&license_number=%20res.0751803%20'), VerifyResponse);
    expect(verified).toMatchObject({ verified: true, licensee: { license_number: 'RES.0751803', brokerage: 'WILLIAM PITT REAL ESTATE LLC' } });
    const batch = body(
      await ctx.api.post('/api/v1/licensees/batch').send({ licenses: [{ state: 'CT', license_number: 'REB.0754319' }, { state: 'CT', license_number: '0751803' }] }),
      BatchVerifyResponse,
    );
    expect(batch.data.map((r) => [r.license_number, r.verified, r.licensee?.full_name ?? null])).toEqual([
      ['REB.0754319', true, 'CTRE LLC'],
      ['0751803', false, null],
    ]);

    const coverage = body(await ctx.api.get('/api/v1/coverage'), CoverageResponse);
    expect(coverage.states.find((s) => s.state === 'CT')).toMatchObject({ relationship_coverage: 'verified_graph_partial', refresh_frequency: 'irregular', record_count: 382 });
    const states = body(await ctx.api.get('/api/v1/states'), StateItem.array());
    expect(states.find((s) => s.code === 'CT')).toMatchObject({ name: 'Connecticut', relationship_coverage: 'verified_graph_partial', record_count: 382 });
    const sources = body(await ctx.api.get('/api/v1/sources'), SourceItem.array());
    const ct = sources.find((s) => s.state === 'CT')!;
    expect(ct).toMatchObject({ id: 'ct-dcp', url: 'https://data.ct.gov/d/6tja-6vdt', format: 'ct-dcp-supervision', refresh_frequency: 'irregular', last_import_rows: 254 });
    expect(ct.relationship_coverage_notes).toMatch(/firms' designated brokers, licence dates, status and addresses are not published/);

    const events = await feed();
    expect(events).toEqual([expect.objectContaining({ type: 'state_loaded', state: 'CT', source: 'ct-dcp', snapshot_date: '2020-12-15', new: { credentials: 382, relationships: 252 } })]);
  });
});

describe('Connecticut snapshots written from the layout', () => {
  const { ctx, ingest, licensee, supervisors, affiliates, feed } = useConnecticut();
  const first = ctFile(
    '"ANN B CARTER","RES.0000001","ALPHA REALTY LLC","REB.0000100"',
    '"BOB DAVIS","RES.0000002","ALPHA REALTY LLC","REB.0000100"',
    '"DAN GREEN","RES.0000003","JANE Q BROKER","REB.0000200"',
    '"EVE HALL","RES.0000004",,',
  );
  // Ann moves to Jane Q Broker, Bob is gone, so no one names Alpha Realty; Eve joins Beta Group.
  const second = ctFile(
    '"ANN B CARTER","RES.0000001","JANE Q BROKER","REB.0000200"',
    '"DAN GREEN","RES.0000003","JANE Q BROKER","REB.0000200"',
    '"EVE HALL","RES.0000004","BETA GROUP INC","REB.0000300"',
  );

  it('when a salesperson changes broker then as_of answers for both periods, and a broker no one names leaves the source', async () => {
    expect(await ingest(first, '2026-01-05')).toMatchObject({ rows_read: 4, inserted: 6, edges_opened: 3, rejected: 0 });
    const summary = await ingest(second, '2026-03-02');
    expect(summary).toMatchObject({ rows_read: 3, inserted: 1, updated: 0, unchanged: 4, left_source: 2, edges_opened: 2, edges_closed: 2, rejected: 0 });

    const at = async (asOf: string) =>
      body(await ctx.api.get(`/api/v1/licensees/CT/RES.0000001/affiliations?as_of=${asOf}`), AffiliationsResponse).data.map((a) => a.supervisor_license_number);
    expect(await at('2026-03-01')).toEqual(['REB.0000100']);
    expect(await at('2026-03-02')).toEqual(['REB.0000200']);
    const history = body(await ctx.api.get('/api/v1/licensees/CT/RES.0000001/affiliations?include_inactive=true'), AffiliationsResponse).data;
    expect(history.map((h) => [h.supervisor_license_number, h.effective_from, h.effective_to])).toEqual([
      ['REB.0000200', '2026-03-02', null],
      ['REB.0000100', '2026-01-05', '2026-03-02'],
    ]);
    expect(await licensee('RES.0000001')).toMatchObject({ brokerage: 'JANE Q BROKER', supervising_brokerages: ['JANE Q BROKER'] });
    expect(await licensee('RES.0000004')).toMatchObject({ brokerage: 'BETA GROUP INC', supervision_empty_reason: null });
    expect((await affiliates('REB.0000200')).data.map((a) => a.license_number).sort()).toEqual(['RES.0000001', 'RES.0000003']);

    const alpha = await licensee('REB.0000100');
    expect(alpha).toMatchObject({ status: 'Not in source file', last_verified: '2026-01-05T00:00:00.000Z' });
    expect(alpha.data_source_notes.at(-1)).toBe('Left the ct-dcp source file: not in the snapshot of 2026-03-02; last seen in the snapshot of 2026-01-05');
    expect((await affiliates('REB.0000100')).meta.total).toBe(0);
    expect(await licensee('RES.0000002')).toMatchObject({ status: 'Not in source file', brokerage: null });

    const events = (await feed()).filter((e) => e.snapshot_date === '2026-03-02');
    expect(events.map((e) => [e.type, e.license_number]).sort()).toEqual([
      ['left_source', 'REB.0000100'],
      ['left_source', 'RES.0000002'],
      ['license_added', 'REB.0000300'],
      ['supervision_ended', 'RES.0000001'],
      ['supervision_ended', 'RES.0000002'],
      ['supervision_started', 'RES.0000001'],
      ['supervision_started', 'RES.0000004'],
      ['supervision_transferred', 'RES.0000001'],
    ]);
    expect(events.find((e) => e.type === 'supervision_transferred')?.transfer).toMatchObject({
      from: { supervisor_license_number: 'REB.0000100' },
      to: { supervisor_license_number: 'REB.0000200' },
      gap_days: 0,
    });

    // The same snapshot again changes nothing; Alpha named again returns to the source.
    expect(await ingest(second, '2026-03-02')).toMatchObject({ inserted: 0, updated: 0, left_source: 0, edges_opened: 0, edges_closed: 0 });
    const third = ctFile(
      '"ANN B CARTER","RES.0000001","JANE Q BROKER","REB.0000200"',
      '"DAN GREEN","RES.0000003","ALPHA REALTY LLC","REB.0000100"',
      '"EVE HALL","RES.0000004","BETA GROUP INC","REB.0000300"',
    );
    expect(await ingest(third, '2026-04-06')).toMatchObject({ updated: 1, left_source: 0, edges_opened: 1, edges_closed: 1 });
    expect(await licensee('REB.0000100')).toMatchObject({ status: 'Active', last_verified: '2026-04-06T00:00:00.000Z' });
    expect(await supervisors('RES.0000003')).toEqual([expect.objectContaining({ license_number: 'REB.0000100', effective_from: '2026-04-06' })]);
    expect((await feed()).filter((e) => e.snapshot_date === '2026-04-06').map((e) => e.type).sort()).toEqual(['returned_to_source', 'status_changed', 'supervision_ended', 'supervision_started', 'supervision_transferred']);
  });
});

describe('Connecticut rows that cannot land', () => {
  const { ingest, licensee, supervisors } = useConnecticut();

  it('when rows are malformed then each is rejected with its line and reason, a renamed broker loses that row its link, and the rest land', async () => {
    const file = ctFile(
      '"OK ONE","RES.0000011","ALPHA REALTY LLC","REB.0000100"',
      '"NO NUMBER","",,',
      '"WRONG PREFIX","REB.0000012",,',
      '"SHORT NUMBER","RES.12345",,',
      '"NO BROKER NAME","RES.0000013",,"REB.0000101"',
      '"BROKER AS SALESPERSON","RES.0000014","SOME REALTY","RES.0000015"',
      '"OK ONE AGAIN","RES.0000011","ALPHA REALTY LLC","REB.0000100"',
      '"RENAMED BROKER","RES.0000016","ALPHA REALTY INC","REB.0000100"',
      '"TOO","MANY","FIELDS","IN","ROW"',
      '"","RES.0000017",,',
      '"SAME BROKER","RES.0000018","Alpha  Realty LLC","REB.0000100"',
    );
    const summary = await ingest(file, '2026-01-05');
    expect(summary).toMatchObject({ rows_read: 11, inserted: 4, rejected: 8, links_rejected: 1 });
    expect(rejectsOf(summary.rejects_file).map((r) => [r.line, r.reason, r.detail])).toEqual([
      ['3', 'invalid license_number', 'salespersoncredential is empty'],
      ['4', 'invalid license_number', 'salespersoncredential REB.0000012 is not RES. and 7 digits'],
      ['5', 'invalid license_number', 'salespersoncredential RES.12345 is not RES. and 7 digits'],
      ['6', 'invalid broker', 'broker_credential REB.0000101 comes without a real_estate_broker name'],
      ['7', 'invalid broker_credential', 'broker_credential RES.0000015 is not REB. and 7 digits'],
      ['8', 'duplicate licence', 'CT RES.0000011 appears more than once'],
      ['9', 'supervisor name differs', 'REB.0000100 is named "ALPHA REALTY INC" here and "ALPHA REALTY LLC" on line 2'],
      ['10', 'malformed line', 'malformed line: Invalid Record Length: columns length is 4, got 5 on line 10'],
      ['11', 'invalid full_name', 'real_estate_salesperson is empty'],
    ]);
    expect(rejectsOf(summary.rejects_file)[6].raw_row).toBe('"RENAMED BROKER","RES.0000016","ALPHA REALTY INC","REB.0000100"');
    expect(rejectsOf(summary.rejects_file)[7].raw_row).toBe('"TOO","MANY","FIELDS","IN","ROW"');
    expect(await licensee('REB.0000100')).toMatchObject({ full_name: 'ALPHA REALTY LLC', license_type: 'brokerage' });
    expect((await supervisors('RES.0000011')).map((s) => s.license_number)).toEqual(['REB.0000100']);
    expect(await supervisors('RES.0000016')).toEqual([]);
    // Another letter case or spacing is the same name: the link holds, the first row's name stays.
    expect((await supervisors('RES.0000018')).map((s) => [s.license_number, s.full_name])).toEqual([['REB.0000100', 'ALPHA REALTY LLC']]);
    expect(await licensee('RES.0000016')).toMatchObject({ full_name: 'RENAMED BROKER', status: 'Active' });
  });
});
