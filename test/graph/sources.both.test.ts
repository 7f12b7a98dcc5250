import { systemClock } from '../../src/domain/clock.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialId } from '../../src/domain/identity.js';
import { importsOf, openGraph, refreshOf } from '../../src/compose/index.js';
import { importFolder } from '../../src/ingest/load.js';
import type { GraphAdapters } from '../../src/graph/adapters-port.js';
import type { Neo4jEngine } from '../../src/graph/neo4j/engine.js';
import type { SearchSource } from '../../src/graph/search-source-port.js';
import { searchIndexOver } from '../../src/search/holder.js';
import { inReadScope } from '../../src/graph/read-scope.js';
import { refresh } from '../../src/ingest/refresh/refresh.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { createCoverageService } from '../../src/modules/coverage/coverage.service.js';
import { createLicenseesService } from '../../src/modules/licensees/licensees.service.js';
import { createRelationshipsService } from '../../src/modules/relationships/relationships.service.js';
import { TEST_ENGINE, files, fixture, suiteNeo4j, testGraph, testConfig, testIndex } from '../helpers/graph.js';
import { SHARED_SOURCES, TX_HEADER, caFile, folderWith, hasShared, tempFile, trecfile, txRow } from '../helpers/source-files.js';

const TODAY = () => '2026-11-22';
/** Runs `fn` as one request's reads, its pins held until it settles (as app.ts holds them until the response closes). */
function inHeldReadScope<T>(fn: () => Promise<T>): Promise<T> {
  let end!: () => void;
  return inReadScope(fn, (e) => (end = e)).finally(() => end());
}
let graph: GraphAdapters | undefined;
afterEach(async () => {
  await graph?.close();
  graph = undefined;
});

/** `given`: a graph of the test's own (closed after it); default an empty one of the suite's engine. */
async function setup(given?: GraphAdapters) {
  graph = given ?? (await testGraph()).graph;
  const reads = graph.reads(TODAY);
  const licensees = createLicenseesService(reads, systemClock, testIndex(graph));
  const relationships = createRelationshipsService(reads, licensees, TODAY);
  const rejectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-rejects-'));
  const ingest = (file: string | string[], snapshot: string, extra: { partial?: boolean; format?: string; confirmRetire?: boolean } = {}) => {
    const list = Array.isArray(file) ? file : [file];
    return refresh(refreshOf(graph!, files), { files: list, format: resolveFormat(list[0], extra.format), snapshot, partial: extra.partial, confirmRetire: extra.confirmRetire, rejectsDir });
  };
  return { graph, licensees, relationships, ingest };
}
/**
 * LadybugDB on disk (else undefined: the suite's graph), where a refresh lands whole: an in-memory
 * LadybugDB graph has no copy to refresh and swap in, so it keeps what a failed run wrote and shows
 * what a running one has written.
 */
const onDisk = async () =>
  TEST_ENGINE === 'ladybug'
    ? openGraph(testConfig({ graphPath: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-on-disk-')), 'graph.lbug'), GRAPH_BUFFER_POOL_MB: 256, GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 30000 }), files)
    : undefined;
const rejectsOf = (file: string | null) => (file ? (parse(fs.readFileSync(file), { columns: true }) as { line: string; reason: string; detail: string; raw_row: string }[]) : []);

describe.skipIf(!hasShared)('the real TREC inspector export (../shared; skipped in a clone without it)', () => {
  it('when ingested then every one of its 8,514 rows lands, and its 201 related licences become current supervisors with their start dates', async () => {
    const { ingest, licensees, relationships } = await setup();
    const summary = await ingest(path.join(SHARED_SOURCES, 'TX/trec-license-holders-inspectors.csv'), '2026-11-01');
    expect(summary).toMatchObject({ source: 'tx-trec', format: 'trec-csv', rows_read: 8514, inserted: 8514, rejected: 0, edges_opened: 201, edges_closed: 0 });

    const apprentice = await licensees.get({ state: 'TX', license_number: '26919-AI' });
    expect(apprentice).toMatchObject({
      full_name: 'TRAVIS JAMES MCELROY',
      first_name: 'TRAVIS',
      middle_name: 'JAMES',
      last_name: 'MCELROY',
      license_type: 'apprentice_inspector',
      license_type_display: 'Apprentice',
      status: 'Active',
      issue_date: '2025-11-24',
      expiration_date: '2027-11-30',
      relationship_coverage: 'verified_graph',
      employment_type: 'supervised',
      current_affiliate_roles: ['apprentice'],
    });
    const supervisors = await relationships.supervisors({ state: 'TX', license_number: '26919-AI' }, {});
    expect(supervisors).toEqual([
      expect.objectContaining({ license_number: '20811-PI', relationship_type: 'supervising_inspector', affiliate_role: 'apprentice', effective_from: '2025-11-24', effective_to: null }),
    ]);
    const coverage = createCoverageService(graph!.reads(() => '2026-11-22'), () => new Date());
    const tx = (await coverage.sources()).find((src) => src.state === 'TX')!;
    expect(tx).toMatchObject({ id: 'tx-trec', relationship_coverage: 'verified_graph', last_snapshot_date: '2026-11-01', last_import_rows: 8514 });
    expect(tx.last_run).toMatchObject({ inserted: 8514, edges_opened: 201, rejected: 0 });
    expect((await coverage.coverage()).states.find((st) => st.state === 'TX')).toMatchObject({ record_count: 8514, active_record_count: 3584 + 7, refresh_frequency: 'nightly' });
    const pro = await licensees.get({ state: 'TX', license_number: '26929-PI' });
    expect(pro).toMatchObject({ full_name: 'BRYCE PATRICK JORDAN', license_type: 'professional_inspector', supervision_empty_reason: 'authoritative_absence' });
    const expired = await licensees.search({ states: ['TX'], status: 'expired', page: 1, per_page: 1 });
    expect(expired.meta.total).toBe(2337 + 47);
    const inspectors = await licensees.search({ states: ['TX'], license_type: 'real_estate_inspector', page: 1, per_page: 1 });
    expect(inspectors.meta.total).toBe(151);
  });
});

describe.skipIf(!hasShared)('the real FL and NY sample rows', () => {
  it('when the FL rows are ingested with their employers then links open at the snapshot date, and a missing employer is reported', async () => {
    const { ingest, licensees, relationships } = await setup();
    const sample = fs.readFileSync(path.join(SHARED_SOURCES, 'FL/RE_rgn7-sample.csv'), 'utf8');
    // The employers of two sample agents, as rows of the same layout (unquoted: the live file's quoting is not confirmed).
    const employers = [
      '25,2502 Real Estate Corporation,NAUTICAL GULF REALTY INC,,CQ RE Corp.,1 GULF BLVD,,,CAPE CORAL,FL,33904,46,Lee,1067315,Current,Active,01/01/2010,01/01/2010,09/30/2027,CQ1067315,,,',
      '25,2502 Real Estate Corporation,STAR BAY REALTY CORP,,CQ RE Corp.,2 BAY ST,,,SEBRING,FL,33870,38,Highlands,1055154,Current,Active,01/01/2012,01/01/2012,09/30/2027,CQ1055154,,,',
    ];
    const summary = await ingest(tempFile('RE_rgn7.csv', `${sample.trim()}\n${employers.join('\n')}\n`), '2026-11-01');
    expect(summary).toMatchObject({ rows_read: 7, inserted: 7, edges_opened: 2, rejected: 0, links_rejected: 1 });
    expect(rejectsOf(summary.rejects_file)).toEqual([
      expect.objectContaining({ line: '4', reason: 'supervisor not on file', detail: 'related licence FL 1021728 is not on file' }),
    ]);
    const agent = await licensees.get({ state: 'FL', license_number: '3579344' });
    expect(agent).toMatchObject({
      full_name: 'KRISTEN LYNN AARNIO',
      last_name: 'AARNIO',
      first_name: 'KRISTEN',
      middle_name: 'LYNN',
      license_type: 'salesperson',
      license_type_display: 'SL Sales Associate',
      status: 'Current, Active',
      brokerage: 'NAUTICAL GULF REALTY INC',
      brokerage_source: 'verified_supervision',
      employment_type: 'employed',
      address: { kind: 'business', line1: '1013 SE 43RD TERR', city: 'CAPE CORAL', county: 'Lee', region: 'FL', postal_code: '33904' },
    });
    expect((await relationships.supervisors({ state: 'FL', license_number: '3579344' }, {}))[0]).toMatchObject({
      license_number: '1067315',
      relationship_type: 'employing_broker',
      effective_from: '2026-11-01',
    });
    expect((await licensees.get({ state: 'FL', license_number: '3588678' })).status).toBe('Current, Inactive');
    expect((await licensees.search({ states: ['FL'], status: 'inactive', page: 1, per_page: 10 })).data.map((l) => l.license_number)).toEqual(['3588678']);
  });

  it('when the NY rows are ingested then the business name is brokerage context, not supervision', async () => {
    const { ingest, licensees } = await setup();
    const summary = await ingest(path.join(SHARED_SOURCES, 'NY/yg7h-zjbf-sample.csv'), '2026-11-01');
    expect(summary).toMatchObject({ source: 'ny-dos', rows_read: 10, inserted: 10, rejected: 0, edges_opened: 0 });
    const l = await licensees.get({ state: 'ny', license_number: '30au0537489' });
    expect(l).toMatchObject({
      full_name: 'JANET AUER',
      last_name: 'AUER',
      first_name: 'JANET',
      license_type: 'broker_associate',
      license_type_display: 'ASSOCIATE BROKER',
      expiration_date: '2019-03-03',
      brokerage: 'COLDWELL BANKER RESIDENTIAL BROKERAGE',
      brokerage_source: 'business_name',
      brokerage_confidence: 'source_reported',
      relationship_coverage: 'source_context_only',
      supervision_empty_reason: 'source_context_only',
      address: { kind: 'business', line1: '1 WASHINGTON AVE', city: 'PLEASANTVILLE', county: null },
    });
    const byBrokerage = await licensees.search({ states: ['NY'], brokerage: 'coldwell banker', page: 1, per_page: 25 });
    expect(byBrokerage.meta.total).toBe(10);

    // The next snapshot lists them unchanged: only when they were seen moves; the context stays.
    const next = await ingest(path.join(SHARED_SOURCES, 'NY/yg7h-zjbf-sample.csv'), '2026-11-08');
    expect(next).toMatchObject({ inserted: 0, updated: 0, unchanged: 10 });
    const seenAgain = await licensees.get({ state: 'ny', license_number: '30au0537489' });
    expect(seenAgain).toMatchObject({ last_verified: '2026-11-08T00:00:00.000Z', brokerage: 'COLDWELL BANKER RESIDENTIAL BROKERAGE', full_name: 'JANET AUER' });
    // The row's own notes stay after the new source line (on Neo4j, read from the run's stamp).
    expect(l.data_source_notes).toEqual(['Source: ny-dos, snapshot of 2026-11-01', 'Name published in upper case, last name first']);
    expect(seenAgain.data_source_notes).toEqual(['Source: ny-dos, snapshot of 2026-11-08', 'Name published in upper case, last name first']);
    expect((await licensees.search({ states: ['NY'], brokerage: 'coldwell banker', page: 1, per_page: 25 })).meta.total).toBe(10);
  });
});

describe('files built from the documented layouts', () => {
  it('when a CA CurrList (windows-1252) is ingested then names decode, and a corporation and its designated officer do not supervise each other', async () => {
    const { ingest, licensees, relationships } = await setup();
    const file = caFile([
      ['N', 'GOLDEN STATE HOMES INC', '', '', '01000001', 'Corporation', 'Licensed', '20200101', '20280101', '20100105', '00200002', 'RAMÍREZ', 'JOSÉ', '', 'Officer', '1 MARKET ST', '', 'SAN FRANCISCO', 'CA', '94105', '', '', 'SAN FRANCISCO', '', ''],
      ['N', 'RAMÍREZ', 'JOSÉ LUIS', '', '00200002', 'Officer', 'Licensed', '20200101', '20280101', '20080105', '01000001', 'GOLDEN STATE HOMES INC', '', '', 'Corporation', '2 MARKET ST', '', 'SAN FRANCISCO', 'CA', '94105', '', '', 'SAN FRANCISCO', '', ''],
      ['N', 'CHEN', 'AMY', '', '00055592', 'Salesperson', 'Licensed NBA', '20240101', '20280101', '20150105', '01000001', 'GOLDEN STATE HOMES INC', '', '', 'Corporation', '3 OAK AVE', 'APT 2', 'OAKLAND', 'CA', '94607', '', '', 'ALAMEDA', 'Y', ''],
      ['N', 'BAD', 'DATE', '', '00055593', 'Salesperson', 'Licensed', '2024-13-45', '20280101', 'not a date', '', '', '', '', '', '', '', '', 'CA', '', '', '', '', '', ''],
      ['N', 'SOLO', 'SAM', '', '00055594', 'Salesperson', 'Licensed NBA', '20240101', '20280101', '20150105', '', '', '', '', '', '', '', '', 'CA', '', '', '', '', '', ''],
      ['N', 'ALONE', 'BEA', '', '01999999', 'Broker', 'Licensed', '20240101', '20280101', '20150105', '', '', '', '', '', '', '', '', 'CA', '', '', '', '', '', ''],
    ]);
    const summary = await ingest(file, '2026-11-01');
    expect(summary).toMatchObject({ source: 'ca-dre', format: 'dre-currlist', rows_read: 6, inserted: 5, edges_opened: 2, rejected: 1, links_rejected: 1 });
    expect(rejectsOf(summary.rejects_file).map((r) => [r.line, r.reason])).toEqual([
      ['3', 'reverse of a designation'],
      ['5', 'unreadable value'],
    ]);
    // A link rejected once the file was read shows its row as read, as a rejected row does.
    const lines = iconv.decode(fs.readFileSync(file), 'win1252').split('\n');
    expect(rejectsOf(summary.rejects_file).map((r) => r.raw_row)).toEqual([lines[2], lines[4]]);
    const officer = await licensees.get({ state: 'CA', license_number: '200002' === '200002' ? '00200002' : '' });
    expect(officer).toMatchObject({ full_name: 'JOSÉ LUIS RAMÍREZ', first_name: 'JOSÉ', middle_name: 'LUIS', license_type: 'officer' });
    expect((await licensees.search({ states: ['CA'], name: 'jose ramirez', page: 1, per_page: 5 })).meta.total).toBe(1);
    const corp = await licensees.get({ state: 'CA', license_number: '01000001' });
    expect(corp).toMatchObject({ business_name: 'GOLDEN STATE HOMES INC', license_type: 'brokerage', relationship_coverage: 'verified_graph_partial' });
    expect(corp.designated_brokers.map((d) => d.license_number)).toEqual(['00200002']);
    const chain = await relationships.hierarchy(credentialId('CA', '00055592'), 10);
    expect(chain.levels.map((l) => [l.depth, l.license_number, l.relationship_type])).toEqual([
      [1, '01000001', 'employing_broker'],
      [2, '00200002', 'designated_officer'],
    ]);
    expect(chain.terminated_by).toBe('top');
    const agent = await licensees.get({ state: 'CA', license_number: '00055592' });
    expect(agent).toMatchObject({ status: 'Licensed NBA', address: { kind: 'mailing', line2: 'APT 2', county: 'ALAMEDA' } });
    expect(agent.data_source_notes).toContain('Restricted licence');
    // CurrList publishes every salesperson's employing broker, but not brokers' associations.
    expect(await licensees.get({ state: 'CA', license_number: '00055594' })).toMatchObject({ supervision_empty_reason: 'authoritative_absence', employment_type: null });
    expect(await licensees.get({ state: 'CA', license_number: '01999999' })).toMatchObject({ supervision_empty_reason: 'partial_coverage', employment_type: null });
  });

  it('when a legacy trecfile.txt (TAB, latin-1, NUL bytes, status codes) is ingested then it maps like the current export', async () => {
    const { ingest, licensees, relationships } = await setup();
    const file = trecfile([
      { type: 'BLLC', number: '9000001', name: 'LONE STAR ÉLITE REALTY LLC', status: '20', issued: '01/02/2005', expires: '01/31/2027', related: '0500001', rstart: '03/01/2010', m1: '1 MAIN ST', mcity: 'AUSTIN', mstate: 'TX', mzip: '78701' },
      { type: 'BRK', number: '0500001', name: 'PEÑA, MARÍA\u0000', status: '20', issued: '01/02/1999', expires: '01/31/2027', related: '9000001', rstart: '03/01/2010', p1: '5 ELM ST', pcity: 'AUSTIN', pstate: 'TX', pzip: '78702' },
      { type: 'SALE', number: '0600001', name: 'SMITH, JOHN Q', status: '45', issued: '01/02/2015', expires: '01/31/2025', related: '9000001', rstart: '06/15/2016' },
      { type: 'REB', number: '9000002', name: 'LONE STAR ÉLITE REALTY - ROUND ROCK', status: '20', issued: '01/02/2012', expires: '01/31/2027', related: '9000001', rstart: '01/02/2012' },
      { type: 'SALE', number: '0600002', name: 'DOE, JANE', status: '99', issued: '01/02/2015', expires: '01/31/2025' },
    ]);
    const summary = await ingest(file, '2026-11-01');
    expect(summary).toMatchObject({ format: 'trecfile', rows_read: 5, inserted: 4, edges_opened: 3, rejected: 1, links_rejected: 1 });
    expect(rejectsOf(summary.rejects_file).map((r) => [r.line, r.reason, r.detail])).toEqual([
      ['2', 'reverse of a designation', "9000001 is this licence's designated broker/officer; kept as the designation only"],
      ['5', 'unreadable value', 'unknown status code "99"'],
    ]);
    const broker = await licensees.get({ state: 'TX', license_number: '0500001' });
    expect(broker).toMatchObject({ full_name: 'MARÍA PEÑA', last_name: 'PEÑA', status: 'Current/Active', license_type: 'broker', address: { kind: 'physical', line1: '5 ELM ST' } });
    const agent = await licensees.get({ state: 'TX', license_number: '0600001' });
    expect(agent).toMatchObject({ status: 'Expired', brokerage: 'LONE STAR ÉLITE REALTY LLC', designated_broker: { license_number: '0500001' } });
    expect((await licensees.search({ states: ['TX'], status: 'expired', page: 1, per_page: 5 })).meta.total).toBe(1);
    const branch = await relationships.hierarchy(credentialId('TX', '9000002'), 10);
    expect(branch.levels.map((l) => [l.license_number, l.relationship_type])).toEqual([
      ['9000001', 'main_office'],
      ['0500001', 'designated_broker'],
    ]);
  });

  it('when TX, FL and NY rows are malformed then each is reported with its line, reason and raw row, and the rest land', async () => {
    const { ingest } = await setup();
    const tx = await ingest(
      tempFile('tx.csv', [TX_HEADER, txRow({ type: 'Sales Agent', number: '1-SA', name: 'ANN ONE', issued: '13/45/2020' }), txRow({ type: 'Sales Agent', number: '2-SA', name: 'BOB TWO' }), txRow({ type: 'Sales Agent', number: '', name: 'NO NUMBER' })].join('\n') + '\n'),
      '2026-11-01',
    );
    expect(tx.inserted).toBe(1);
    expect(rejectsOf(tx.rejects_file).map((r) => [r.line, r.reason])).toEqual([
      ['2', 'invalid issue_date'],
      ['4', 'invalid license_number'],
    ]);
    expect(rejectsOf(tx.rejects_file)[0].raw_row).toContain('ANN ONE');
    const fl = await ingest(
      tempFile(
        'RE_rgn1.csv',
        [
          '25,2501 Real Estate Broker or Sales,"DOE, JANE",,SL Sales Associate,1 A ST,,,MIAMI,FL,33101,13,Dade,3000001,Current,Active,01/01/2020,01/01/2020,03/31/2027,SL3000001,,,',
          // Unquoted, as the live file may be: the name's comma splits it in two.
          '25,2501 Real Estate Broker or Sales,ROE, RICHARD K,,SL Sales Associate,2 B ST,,,MIAMI,FL,33101,13,Dade,3000002,Current,Active,01/01/2020,01/01/2020,03/31/2027,SL3000002,,,',
          '25,2501,"SHORT, ROW",,SL',
        ].join('\n') + '\n',
      ),
      '2026-11-01',
      { format: 'dbpr-csv' },
    );
    expect(fl.inserted).toBe(2);
    expect(rejectsOf(fl.rejects_file).map((r) => [r.line, r.reason, r.raw_row])).toEqual([['3', 'malformed line', '25,2501,"SHORT, ROW",,SL']]);
    const ny = await ingest(
      tempFile('ny.csv', 'Business Name,Business Address 1,Business Address 2,Business City,Business State,Business Zip,County,License Holder Name,License Expiration Date,License Number,License Type\nACME,1 A ST,,NYC,NY,10001,NONE,DOE JANE,99/99/2020,10401234567,REAL ESTATE SALESPERSON\nACME,1 A ST,,NYC,NY,10001,NONE,ROE RICHARD,01/01/2027,10401234568,REAL ESTATE SALESPERSON\n'),
      '2026-11-01',
    );
    expect(ny.inserted).toBe(1);
    expect(rejectsOf(ny.rejects_file).map((r) => [r.line, r.reason])).toEqual([['2', 'invalid expiration_date']]);
  });
});

describe('a full snapshot that would retire many licences', () => {
  const agents = (n: number) => Array.from({ length: n }, (_, i) => txRow({ type: 'Sales Agent', number: `${i + 1}-SA`, name: `AGENT NUMBER${i + 1}` }));
  it('when it would retire more than a fifth of the active licences then it stops with a 409 naming the counts and writes nothing, and lands once confirmed', async () => {
    const { ingest, licensees, graph: g } = await setup(await onDisk());
    await ingest(tempFile('all.csv', `${[TX_HEADER, ...agents(40)].join('\n')}\n`), '2026-09-01');
    const truncated = tempFile('truncated.csv', `${[TX_HEADER, ...agents(40).slice(0, 28)].join('\n')}\n`);
    const refused = await ingest(truncated, '2026-10-01').then(() => undefined, (err: unknown) => err);
    expect(refused).toMatchObject({ status: 409 });
    expect((refused as Error).message).toMatch(/^the snapshot of 2026-10-01 would retire 12 of TX's 40 active tx-trec licences \(30\.0%; a refresh retires at most 20% unconfirmed\).*Nothing was written.*--confirm-retire/);
    const active = async () => (await licensees.search({ states: ['TX'], status: 'active', page: 1, per_page: 1 })).meta.total;
    expect(await active()).toBe(40);
    expect((await licensees.get({ state: 'TX', license_number: '1-SA' })).last_verified).toBe('2026-09-01T00:00:00.000Z');
    expect((await g!.engine.read("MATCH (s:Source {id: 'tx-trec'}) RETURN s.last_snapshot_date AS d"))[0].d).toBe('2026-09-01');

    const confirmed = await ingest(truncated, '2026-10-01', { confirmRetire: true });
    expect(confirmed).toMatchObject({ unchanged: 28, left_source: 12 });
    expect(await active()).toBe(28);
  });
});

describe('refresh history over successive snapshots', () => {
  const snapshot1 = [
    TX_HEADER,
    txRow({ type: 'Broker Individual', number: '100-B', name: 'OLD BROKER' }),
    txRow({ type: 'Broker Individual', number: '200-B', name: 'NEW BROKER' }),
    txRow({ type: 'Sales Agent', number: '1-SA', name: 'MOVING AGENT', related: '100-B', relatedStart: '03/01/2020 12:00:00 AM' }),
    txRow({ type: 'Sales Agent', number: '2-SA', name: 'LEAVING AGENT', related: '100-B', relatedStart: '04/01/2021 12:00:00 AM' }),
  ].join('\n');
  const snapshot2 = [
    TX_HEADER,
    txRow({ type: 'Broker Individual', number: '100-B', name: 'OLD BROKER' }),
    txRow({ type: 'Broker Individual', number: '200-B', name: 'NEW BROKER' }),
    txRow({ type: 'Sales Agent', number: '1-SA', name: 'MOVING AGENT', related: '200-B', relatedStart: '09/15/2026 12:00:00 AM' }),
  ].join('\n');

  it('when an agent changes broker between snapshots then as_of answers for both periods, and a licence gone from the file turns inactive', async () => {
    const { ingest, relationships, licensees, graph: g } = await setup();
    // On Neo4j, each link in force on the in-force day has one in-force copy, and no copy is left
    // without its link: those of new credentials are written with their links, the others after.
    const inForceCopies = async () =>
      (
        await g!.engine.read(`MATCH (d:InForceDay {id: 'supervises'})
          CALL (d) { MATCH (s)-[r:SUPERVISES]->(a) WHERE r.effective_from <= d.date AND (r.effective_to IS NULL OR r.effective_to > d.date)
            RETURN count(r) AS links, sum(COUNT { MATCH (s)-[f:SUPERVISES_IN_FORCE]->(a) WHERE coalesce(f.vf, -1) = coalesce(r.vf, -1) AND coalesce(f.vt, -1) = coalesce(r.vt, -1)
              AND f.page_key = a.sort_key + '\\u0000' + a.id + '\\u0000' + r.relationship_type + '\\u0000' + toString(r.effective_from) + '\\u0000' + coalesce(r.affiliate_role, '\\uffff') + '\\u0000' + coalesce(toString(r.effective_to), '\\uffff') }) AS matched }
          RETURN links, matched, COUNT { MATCH ()-[:SUPERVISES_IN_FORCE]->() } AS copies`)
      )[0];
    await ingest(tempFile('s1.csv', `${snapshot1}\n`), '2026-09-01');
    if (TEST_ENGINE === 'neo4j') expect(await inForceCopies()).toEqual({ links: 2, matched: 2, copies: 2 });
    const second = await ingest(tempFile('s2.csv', `${snapshot2}\n`), '2026-10-01');
    // Versions of the closed links stay until their collection, each with its copy.
    if (TEST_ENGINE === 'neo4j') expect(await inForceCopies()).toEqual({ links: 3, matched: 3, copies: 3 });
    // The moving agent's own row is unchanged: its new broker shows in the relationship counts.
    expect(second).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, left_source: 1, edges_opened: 1, edges_closed: 2 });

    const agent = { state: 'TX', license_number: '1-SA' };
    const at = async (as_of: string) => (await relationships.affiliations(agent, { as_of, include_inactive: false })).map((a) => a.supervisor_license_number);
    expect(await at('2026-08-01')).toEqual(['100-B']);
    expect(await at('2026-09-14')).toEqual(['100-B']);
    // The source dates the new link 2026-09-15: the old one ends that day, no overlap.
    expect(await at('2026-09-30')).toEqual(['200-B']);
    expect(await at('2026-10-01')).toEqual(['200-B']);
    const history = await relationships.affiliations(agent, { include_inactive: true });
    expect(history.map((h) => [h.supervisor_license_number, h.effective_from, h.effective_to])).toEqual([
      ['200-B', '2026-09-15', null],
      ['100-B', '2020-03-01', '2026-09-15'],
    ]);

    const gone = await licensees.get({ state: 'TX', license_number: '2-SA' });
    expect(gone.status).toBe('Not in source file');
    expect(gone.last_verified).toBe('2026-09-01T00:00:00.000Z');
    expect(gone.data_source_notes.at(-1)).toMatch(/Left the tx-trec source file: not in the snapshot of 2026-10-01; last seen in the snapshot of 2026-09-01/);
    expect(gone.supervision_empty_reason).toBe('authoritative_absence');
    expect((await licensees.search({ states: ['TX'], status: 'inactive', page: 1, per_page: 5 })).data.map((l) => l.license_number)).toEqual(['2-SA']);
    expect((await relationships.affiliations({ state: 'TX', license_number: '2-SA' }, { as_of: '2026-09-15', include_inactive: false })).map((a) => a.supervisor_license_number)).toEqual(['100-B']);
    const unchanged = await licensees.get({ state: 'TX', license_number: '200-B' });
    expect(unchanged.last_verified).toBe('2026-10-01T00:00:00.000Z');
    expect(unchanged.data_source_notes).toEqual(['Source: tx-trec, snapshot of 2026-10-01']);

    // The same snapshot again changes nothing.
    // What readers see: on Neo4j, the versions of the published generation (docs/graph.md).
    const visible = TEST_ENGINE === 'neo4j' ? ' WHERE (r.vf IS NULL OR r.vf <= $g) AND (r.vt IS NULL OR r.vt > $g)' : '';
    const census = async () => (await g!.engine.read(`MATCH (c:LicenseCredential) OPTIONAL MATCH (c)<-[r:SUPERVISES]-()${visible} RETURN count(DISTINCT c) AS c, count(r) AS r`))[0];
    const before = await census();
    const again = await ingest(tempFile('s2.csv', `${snapshot2}\n`), '2026-10-01');
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, left_source: 0, edges_opened: 0, edges_closed: 0 });
    expect(await census()).toEqual(before);
    // It leaves the read models as they were; a rename in the next snapshot shows in them.
    const affiliateNames = async () => (await relationships.affiliates({ state: 'TX', license_number: '200-B' }, {}, 1, 10)).data.map((a) => a.full_name);
    expect(await at('2026-10-01')).toEqual(['200-B']);
    expect(await affiliateNames()).toEqual(['MOVING AGENT']);
    const renamed = await ingest(tempFile('s3.csv', `${snapshot2.replace('MOVING AGENT', 'MOVED AGENT')}\n`), '2026-10-08');
    expect(renamed).toMatchObject({ updated: 1, edges_opened: 0, edges_closed: 0 });
    expect(await affiliateNames()).toEqual(['MOVED AGENT']);

    // An older snapshot is refused: history only moves forward.
    await expect(ingest(tempFile('s1.csv', `${snapshot1}\n`), '2026-08-01')).rejects.toThrow(/older than the last refresh/);
  });

  it('when a licence row is invalid in a full snapshot then the licence is not taken for gone, and its links stay', async () => {
    const { ingest, licensees, relationships } = await setup();
    await ingest(tempFile('s1.csv', `${snapshot1}\n`), '2026-09-01');
    const broken = snapshot1.replace('"AGENT, MOVING",MOVING,,AGENT', '"AGENT, MOVING",MOVING,,AGENT').split('\n');
    broken[3] = txRow({ type: 'Sales Agent', number: '1-SA', name: 'MOVING AGENT', issued: '99/99/2020', related: '100-B', relatedStart: '03/01/2020 12:00:00 AM' });
    const run = await ingest(tempFile('s2.csv', `${broken.join('\n')}\n`), '2026-10-01');
    expect(run).toMatchObject({ rejected: 1, left_source: 0, edges_closed: 0 });
    expect((await licensees.get({ state: 'TX', license_number: '1-SA' })).status).toBe('Active');
    expect((await relationships.supervisors({ state: 'TX', license_number: '1-SA' }, {})).map((x) => x.license_number)).toEqual(['100-B']);
  });

  it('when a licence that left comes back then it is active again and its new link opens', async () => {
    const { ingest, licensees, relationships } = await setup();
    await ingest(tempFile('s1.csv', `${snapshot1}\n`), '2026-09-01');
    await ingest(tempFile('s2.csv', `${snapshot2}\n`), '2026-10-01');
    const back = await ingest(tempFile('s3.csv', `${snapshot1}\n`), '2026-11-01');
    expect(back).toMatchObject({ updated: 1, left_source: 0 });
    const agent = await licensees.get({ state: 'TX', license_number: '2-SA' });
    expect(agent).toMatchObject({ status: 'Active', last_verified: '2026-11-01T00:00:00.000Z' });
    // Its link to 100-B came back with the same published start date: the old interval is reopened.
    expect((await relationships.supervisors({ state: 'TX', license_number: '2-SA' }, {}))).toEqual([
      expect.objectContaining({ license_number: '100-B', effective_from: '2021-04-01', effective_to: null }),
    ]);
  });

  it('when licences share an agency identifier across snapshots then each licensee is one node holding its licences', async () => {
    const { ingest, graph: g } = await setup();
    const agent = (number: string, agency: string) => txRow({ type: 'Sales Agent', number, name: `AGENT ${number}`, agency });
    // 10 and 11 name a licensee new in the same run.
    const first = await ingest(tempFile('k1.csv', `${[TX_HEADER, agent('10-SA', 'A1'), agent('11-SA', 'A1'), agent('12-SA', 'A2')].join('\n')}\n`), '2026-09-01');
    expect(first).toMatchObject({ inserted: 3, rejected: 0 });
    // 13 names a licensee on file; 14 a new one that 12, listed after it, moves to; 15 a new one.
    const rows = [agent('10-SA', 'A1'), agent('11-SA', 'A1'), agent('13-SA', 'A1'), agent('14-SA', 'A3'), agent('12-SA', 'A3'), agent('15-SA', 'A4')];
    const second = await ingest(tempFile('k2.csv', `${[TX_HEADER, ...rows].join('\n')}\n`), '2026-10-01');
    expect(second).toMatchObject({ inserted: 3, updated: 1, unchanged: 2, rejected: 0 });
    const holders = await g!.engine.read("MATCH (l:Licensee)-[:HOLDS]->(c:LicenseCredential) WHERE c.state = 'TX' RETURN l.licensee_key AS key, collect(c.license_number) AS held ORDER BY key");
    expect(holders.map((h) => ({ key: h.key, held: (h.held as string[]).sort() }))).toEqual([
      { key: 'A1', held: ['10-SA', '11-SA', '13-SA'] },
      { key: 'A3', held: ['12-SA', '14-SA'] },
      { key: 'A4', held: ['15-SA'] },
    ]);
    const perKey = await g!.engine.read('MATCH (l:Licensee) WHERE l.licensee_key IS NOT NULL RETURN l.licensee_key AS key, count(*) AS n ORDER BY key');
    // A2 held 12 only: it stays until the next run's orphan cleanup, once, like every other key.
    expect(perKey).toEqual(['A1', 'A2', 'A3', 'A4'].map((key) => ({ key, n: 1 })));
  });

  it('when values hold quotes, commas and newlines then the bulk load keeps them intact', async () => {
    const { ingest, licensees } = await setup();
    const tricky = `${TX_HEADER}\nBroker Company,300-B,"ACME ""BEST"" REALTY, LLC",,Active,01/01/2010,01/31/2027,,,,,,,,,"ACME, X",,,,\n`;
    const run = await ingest(tempFile('q.csv', tricky), '2026-11-01', { partial: true });
    expect(run).toMatchObject({ inserted: 1, rejected: 0 });
    expect((await licensees.get({ state: 'TX', license_number: '300-B' })).business_name).toBe('ACME "BEST" REALTY, LLC');
  });

  it('when a partial snapshot leaves licences out then they stay as they were', async () => {
    const { ingest, licensees } = await setup();
    await ingest(tempFile('s1.csv', `${snapshot1}\n`), '2026-09-01');
    const partial = await ingest(tempFile('p.csv', `${TX_HEADER}\n${txRow({ type: 'Broker Individual', number: '200-B', name: 'NEW BROKER' })}\n`), '2026-10-01', { partial: true });
    expect(partial).toMatchObject({ full_snapshot: false, left_source: 0, edges_closed: 0 });
    expect((await licensees.get({ state: 'TX', license_number: '2-SA' })).status).toBe('Active');
  });

  it('when another source takes a state over then its licences are that source\'s, and on Neo4j each stays one node', async () => {
    const { ingest, licensees, graph: g } = await setup();
    const [header] = fs.readFileSync(fixture('small/credentials.csv'), 'utf8').split('\n');
    const jurisdictions = fs.readFileSync(fixture('small/jurisdictions.csv'), 'utf8').split('\n').slice(0, 2).join('\n');
    // As the TREC rows below parse: the same names, dates and holder, another source.
    const canonical = (number: string, type: string, display: string, first: string, last: string) =>
      `TX,${number},${type},${display},Active,,person,${first} ${last},${first},,${last},,,2015-01-15,2027-01-31,,,,,,,,,,,fixture,2026-09-01,,`;
    const loaded = await importFolder(importsOf(g, files), folderWith({ 'jurisdictions.csv': `${jurisdictions}\n`, 'credentials.csv': `${header}\n${canonical('100-B', 'broker', 'Broker Individual', 'OLD', 'BROKER')}\n${canonical('1-SA', 'salesperson', 'Sales Agent', 'MOVING', 'AGENT')}\n` }));
    expect(loaded).toMatchObject({ credentials: 2, rejected: [] });
    const trec = tempFile('takeover.csv', `${TX_HEADER}\n${txRow({ type: 'Broker Individual', number: '100-B', name: 'OLD BROKER' })}\n${txRow({ type: 'Sales Agent', number: '1-SA', name: 'MOVING AGENT' })}\n`);

    expect(await ingest(trec, '2026-10-01')).toMatchObject({ inserted: 0, updated: 2, unchanged: 0 });
    expect((await licensees.get({ state: 'TX', license_number: '1-SA' })).data_source_notes).toEqual(['Source: tx-trec, snapshot of 2026-10-01']);
    // Its values changed in place (overlay-credentials.cypher): no second version of either.
    if (TEST_ENGINE === 'neo4j') expect(await g.engine.read('MATCH (c:LicenseCredential|Superseded) RETURN count(c) AS n')).toEqual([{ n: 2 }]);
    // The next run compares with the new source: the same file again changes nothing.
    expect(await ingest(trec, '2026-10-08')).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
  });
});

describe('readers while a refresh lands', () => {
  const AGENTS = 1000;
  const snapshot = (next: boolean, agents = AGENTS) =>
    [
      TX_HEADER,
      // Its status alone changes: on Neo4j a pending value on the published node (docs/graph.md).
      txRow({ type: 'Broker Individual', number: '100-B', name: 'FIRST BROKER', status: next ? 'Inactive' : 'Active' }),
      txRow({ type: 'Broker Individual', number: '200-B', name: 'SECOND BROKER' }),
      ...Array.from({ length: agents }, (_, i) =>
        txRow({
          type: 'Sales Agent',
          number: `${i}-SA`,
          name: `${next ? 'RENAMED' : 'FIRST'} AGENT${i}`,
          status: next ? 'Inactive' : 'Active',
          related: next ? '200-B' : '100-B',
          relatedStart: next ? '10/01/2026 12:00:00 AM' : '01/01/2020 12:00:00 AM',
        }),
      ),
    ].join('\n') + '\n';

  it('when the next snapshot lands while requests read then every answer is wholly the old snapshot or wholly the new one, and on Neo4j so is every request', async () => {
    const { ingest, licensees, relationships } = await setup(await onDisk());
    await ingest(tempFile('first.csv', snapshot(false)), '2026-09-01');
    /** One request's reads of one agent: 'old' or 'new' when all agree with one snapshot, else what they said. */
    const request = (k: number) =>
      inHeldReadScope(async () => {
        const agent = { state: 'TX', license_number: `${k}-SA` };
        const [one, broker, inactiveBroker, inactive, renamed, supervisors, second] = await Promise.all([
          licensees.get(agent),
          licensees.get({ state: 'TX', license_number: '100-B' }),
          licensees.search({ states: ['TX'], name: 'first broker', status: 'inactive', page: 1, per_page: 5 }),
          licensees.search({ states: ['TX'], status: 'inactive', page: 1, per_page: 1 }),
          licensees.search({ states: ['TX'], name: 'renamed', page: 1, per_page: 5 }),
          relationships.supervisors(agent, {}),
          relationships.affiliates({ state: 'TX', license_number: '200-B' }, {}, 1, 5),
        ]);
        const answers = [
          one.status === 'Active' && one.full_name === `FIRST AGENT${k}` ? 'old' : one.status === 'Inactive' && one.full_name === `RENAMED AGENT${k}` ? 'new' : `get: ${one.status} ${one.full_name}`,
          broker.status === 'Active' ? 'old' : broker.status === 'Inactive' ? 'new' : `broker: ${broker.status}`,
          inactiveBroker.meta.total === 0 ? 'old' : inactiveBroker.meta.total === 1 && inactiveBroker.data[0].license_number === '100-B' ? 'new' : `inactive broker: ${inactiveBroker.meta.total}`,
          inactive.meta.total === 0 ? 'old' : inactive.meta.total === AGENTS + 1 ? 'new' : `inactive: ${inactive.meta.total}`,
          renamed.meta.total === 0 && renamed.data.length === 0 ? 'old' : renamed.meta.total === AGENTS && renamed.data.length === 5 ? 'new' : `renamed: ${renamed.meta.total} ${renamed.data.length}`,
          supervisors.map((s) => s.license_number).join() === '100-B' ? 'old' : supervisors.map((s) => s.license_number).join() === '200-B' ? 'new' : `supervisors: ${supervisors.map((s) => s.license_number)}`,
          second.meta.total === 0 ? 'old' : second.meta.total === AGENTS && second.data.length === 5 ? 'new' : `affiliates: ${second.meta.total} ${second.data.length}`,
        ];
        return answers;
      });
    // Answers are tallied, not kept: only those that break the rule are. Between requests the
    // loop yields to the event loop, as requests arriving over HTTP do (answered from the engines'
    // caches a request settles in microtasks alone, and a loop of those never let the refresh's
    // callbacks run), and leaves the refresh some CPU on a busy machine.
    let requests = 0;
    const mixed: string[][] = [];
    const strange: string[] = [];
    const tally = (answers: string[]) => {
      requests += 1;
      strange.push(...answers.filter((a) => a !== 'old' && a !== 'new'));
      if (new Set(answers).size > 1) mixed.push(answers);
      return answers;
    };
    let done = false;
    const landing = ingest(tempFile('next.csv', snapshot(true)), '2026-10-15').finally(() => (done = true));
    for (let k = 0; !done; k = (k + 1) % AGENTS) {
      tally(await request(k));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await landing).toMatchObject({ updated: AGENTS + 1, edges_opened: AGENTS, edges_closed: AGENTS });
    const last = tally(await request(7));

    expect(requests).toBeGreaterThan(3);
    expect(strange).toEqual([]);
    if (TEST_ENGINE === 'neo4j') expect(mixed).toEqual([]);
    expect(last).toEqual(['new', 'new', 'new', 'new', 'new', 'new', 'new']);
    if (TEST_ENGINE === 'neo4j') {
      // Once readers are done with the old versions they go, and pending values become the nodes'
      // own (versions.ts); requests meanwhile read the new snapshot whole, never a version being deleted.
      const notNew: string[][] = [];
      const check = (answers: string[]) => answers.some((a) => a !== 'new') && notNew.push(answers);
      for (let k = 0, until = Date.now() + 30_000; (await replaced()) > 0 && Date.now() < until; k = (k + 1) % AGENTS) {
        check(await request(k));
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await replaced()).toBe(0);
      check(await request(11));
      expect(notNew).toEqual([]);
    }
  });

  /** What a publish replaced and no reader has let go of yet (Neo4j: collect.cypher removes it). */
  const replaced = async () => Number((await graph!.engine.read('MATCH (c:Superseded|Pending) RETURN count(c) AS n'))[0].n);
  /** Long enough for a process that stopped waiting for its readers to have collected: two of their beats and more. */
  const beats = () => new Promise((r) => setTimeout(r, 2500));

  it.skipIf(TEST_ENGINE !== 'neo4j')('on Neo4j when a request began before the publish then it reads its snapshot for as long as it runs, and what the publish replaced goes once it ends; pending values made the credential\'s own keep their copies past the longest query', async () => {
    const { graph: g, ingest, licensees } = await setup();
    await ingest(tempFile('first.csv', snapshot(false, 10)), '2026-09-01');
    const agent = { state: 'TX', license_number: '7-SA' };
    let began!: () => void;
    let finish!: () => void;
    const reading = new Promise<void>((r) => (began = r));
    const finishing = new Promise<void>((r) => (finish = r));
    const request = inHeldReadScope(async () => {
      const before = await licensees.get(agent);
      began();
      await finishing;
      const after = await licensees.get(agent);
      // The search index has moved on: the request's search answers from the index of its snapshot.
      const named = async (name: string) => (await licensees.search({ states: ['TX'], name, page: 1, per_page: 20 })).meta.total;
      return [before.full_name, after.full_name, after.status, await named('renamed'), await named('first agent7')];
    });
    await reading;
    await ingest(tempFile('next.csv', snapshot(true, 10)), '2026-10-15');
    expect((await licensees.get(agent)).full_name).toBe('RENAMED AGENT7');
    const renamedNow = async () => (await licensees.search({ states: ['TX'], name: 'renamed', page: 1, per_page: 20 })).meta.total;
    expect(await renamedNow()).toBe(10);
    await beats();
    expect(await replaced()).toBeGreaterThan(0);

    finish();
    expect(await request).toEqual(['FIRST AGENT7', 'FIRST AGENT7', 'Active', 0, 1]);
    expect(await renamedNow()).toBe(10);
    await expect.poll(replaced, { timeout: 30_000 }).toBe(0);

    // The broker's status changed in place: its own value is the new one, and its p_ copy stays for
    // a read that saw pg before the collection (collect.cypher). Eleven minutes on, the next run's
    // collection drops the copy.
    /** Credentials that still hold p_ values, and whether those are pending (pg set). */
    const copies = () => g.engine.read('MATCH (c:LicenseCredential) WHERE c.p_status IS NOT NULL RETURN c.license_number AS n, c.pg IS NOT NULL AS pending, c.status AS status ORDER BY n');
    expect(await copies()).toEqual([{ n: '100-B', pending: false, status: 'Inactive' }]);
    await (g.engine as Neo4jEngine).writeNow('MATCH (c:Promoted) SET c.promoted_at = datetime() - duration({minutes: 12})');
    await ingest(tempFile('third.csv', snapshot(true, 10)), '2026-10-22');
    await expect.poll(replaced, { timeout: 30_000 }).toBe(0);
    expect(await copies()).toEqual([]);
    expect(Number((await g.engine.read('MATCH (c:Promoted) RETURN count(c) AS n'))[0].n)).toBe(0);
    expect((await licensees.get({ state: 'TX', license_number: '100-B' })).status).toBe('Inactive');
  });

  it.skipIf(TEST_ENGINE !== 'neo4j')('on Neo4j when another process serves a search index of the generation a publish replaced then it stays until that index catches up, and the publisher collects it before it closes', async () => {
    const { graph: g, ingest } = await setup();
    await ingest(tempFile('first.csv', snapshot(false, 10)), '2026-09-01');
    // A second process's index, whose reads of the graph's rows wait at a gate once it is built.
    const neo4j = suiteNeo4j();
    const api = await openGraph(testConfig({ graphPath: ':memory:', GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 30000, NEO4J_URI: neo4j.uri, NEO4J_USER: neo4j.user, NEO4J_PASSWORD: neo4j.password }), files);
    const source = api.searchSource();
    let gate = Promise.resolve();
    let letThrough = () => undefined as void;
    const gated: SearchSource = {
      ...source,
      exportRows: async (...args) => (await gate, source.exportRows(...args)),
      changedRows: async (...args) => (await gate, source.changedRows!(...args)),
    };
    const index = searchIndexOver(gated, (err) => expect.fail(String(err)));
    try {
      await index.current();
      const before = index.status().generation!;
      gate = new Promise<void>((r) => (letThrough = r));
      await ingest(tempFile('next.csv', snapshot(true, 10)), '2026-10-15');
      await beats();
      expect(index.status()).toMatchObject({ generation: before });
      expect(await replaced()).toBeGreaterThan(0);
      // The publishing process closes (as the ingest command exits) once it has collected, which waits for that index.
      let closed = false;
      const closing = g.close().then(() => (closed = true));
      await beats();
      expect(closed).toBe(false);
      expect(await replaced()).toBeGreaterThan(0);

      letThrough();
      await expect.poll(() => index.status().generation, { timeout: 30_000 }).toBeGreaterThan(before);
      await closing;
      graph = undefined;
      expect(Number((await api.engine.read('MATCH (c:Superseded|Pending) RETURN count(c) AS n'))[0].n)).toBe(0);
    } finally {
      letThrough();
      index.close();
      await api.close();
    }
  });

  it.skipIf(TEST_ENGINE !== 'neo4j')('on Neo4j when another process still reads the generation a publish replaced then it stays until that process moves on, and a process gone silent or killed on this host is not waited for', async () => {
    const { graph: g, ingest } = await setup();
    await ingest(tempFile('first.csv', snapshot(false, 10)), '2026-09-01');
    const [{ generation }] = await g.engine.read("MATCH (s:Snapshot {id: 'graph'}) RETURN s.generation AS generation");
    // As readers.ts reports them: one heard from now that may read the published generation, one silent
    // for a minute that may read any, and one of a process of this host that has exited, heard from
    // (as far as the graph knows) until long after this test.
    const exited = `${os.hostname()}:${spawnSync(process.execPath, ['-e', '0']).pid}`;
    await (g.engine as Neo4jEngine).writeNow(
      "CREATE (:GraphReader {id: 'elsewhere:1', holder: 'elsewhere:1', oldest: $generation, beat_at: datetime()}), (:GraphReader {id: 'elsewhere:2', holder: 'elsewhere:2', oldest: 0, beat_at: datetime() - duration({seconds: 60})}), (:GraphReader {id: $exited, holder: $exited, oldest: 0, beat_at: datetime() + duration({hours: 1})})",
      { generation, exited },
    );
    await ingest(tempFile('next.csv', snapshot(true, 10)), '2026-10-15');
    await beats();
    expect(await replaced()).toBeGreaterThan(0);

    await (g.engine as Neo4jEngine).writeNow("MATCH (r:GraphReader {id: 'elsewhere:1'}) SET r.oldest = $generation + 1, r.beat_at = datetime()", { generation });
    await expect.poll(replaced, { timeout: 30_000 }).toBe(0);
  });
});
