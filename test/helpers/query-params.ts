// Representative parameters of every shared query file. The lint test declares exactly these
// parameter names to Neo4j's linter (so a misspelled $param fails) and the execution test runs
// each file on LadybugDB with these values. A query file missing here fails both tests.

const TX_AGENT = '86d53935-39cc-5aac-b6b0-6f0210b16917'; // TX 763827-SA in the small fixture
const TX_BROKERAGE = 'f0a77b2d-3837-5c12-a917-08b06e35020a'; // TX 100001-B

/** Every LicenseCredential property plus the licensee fields, as the import writes them. */
const CREDENTIAL_ROW = {
      id: '00000000-0000-5000-8000-000000000001', state: 'OR', license_number: '1', license_number_display: '1',
      license_type: 'broker', license_type_display: 'Broker', status: 'Active', status_normalized: 'active', entity_type: 'person',
      full_name: 'A B', first_name: 'A', middle_name: null, last_name: 'B', suffix: null, business_name: null,
      issue_date: '2020-01-01', expiration_date: null, address_kind: null, address_line1: null, address_line2: null,
      address_city: null, address_county: null, address_region: null, address_postal_code: null, address_country: null,
      source: 'test', snapshot_date: '2026-11-01', last_verified: '2026-11-01T00:00:00.000Z', data_source_notes: ['n'],
      f_full: 'a b', f_first: 'a', f_last: 'b', f_business: null, f_city: null, sort_key: 'b a',
      licensee_id: '00000000-0000-5000-8000-000000000002', licensee_key: null, display_name: 'A B', row_hash: 'h', left_source_on: null, doc: '{"id":"00000000-0000-5000-8000-000000000001"}',
    };

export const QUERY_PARAMS: Record<string, Record<string, unknown>> = {
  'analyst/broker-current-affiliates': { state: 'TX', license_number: '100001-B', as_of: '2026-11-22' },
  'analyst/agent-supervision-history': { state: 'TX', license_number: '763827-SA' },
  'analyst/chains-deeper-than-two': { as_of: '2026-11-22' },
  'analyst/brokers-spanning-states': { as_of: '2026-11-22' },
  'analyst/supervised-by-expired-licence': { as_of: '2026-11-22' },
  'coverage/jurisdictions': {},
  'licensees/by-id': { id: TX_AGENT },
  'licensees/records-by-ids': { ids: [TX_AGENT, TX_BROKERAGE] },
  'licensees/jurisdiction-coverage': {},
  'refresh/docs': { ids: [TX_AGENT, TX_BROKERAGE] },
  'licensees/search': {
    states: ['TX'], skip: 0, limit: 10,
    name_term_0: 'jose', first_name_term_0: 'jo', last_name_term_0: 'mu', business_name_term_0: 'acme',
    city_term_0: 'hou', status: 'active', license_type: 'salesperson', license_number_prefix: '7638',
    brokerage_term_0: 'acme', brokerage_types: ['sponsoring_broker', 'employing_broker', 'main_office'], today: '2026-11-01',
  },
  'licensees/search-count': {
    states: ['TX'],
    name_term_0: 'jose', first_name_term_0: 'jo', last_name_term_0: 'mu', business_name_term_0: 'acme',
    city_term_0: 'hou', status: 'active', license_type: 'salesperson', license_number_prefix: '7638',
    brokerage_term_0: 'acme', brokerage_types: ['sponsoring_broker', 'employing_broker', 'main_office'], today: '2026-11-01',
  },
  'licensees/type-counts': { states: ['TX', 'NY'] },
  'relationships/affiliate-list': { id: TX_BROKERAGE },
  'licensees/search-index-rows': {},
  'import/demo-supervisor-states': { state: 'TX' },
  'import/jurisdiction-codes': {},
  'import/upsert-jurisdictions': {
    rows: [{ state: 'OR', name: 'Oregon', status: 'planned', refresh_frequency: 'weekly', relationship_coverage: 'not_yet_ingested',
      relationship_coverage_notes: 'n', is_demo: false, source_id: 'wa-dol', source_name: 'WA DOL', source_url: 'https://example.org', source_format: 'csv' }],
  },
  'import/detach-other-sources': { rows: [{ state: 'OR', source_id: 'wa-dol' }] },
  'import/upsert-credentials': { rows: [CREDENTIAL_ROW] },
  'import/detach-other-holders': { rows: [{ id: '00000000-0000-5000-8000-000000000001', licensee_id: '00000000-0000-5000-8000-000000000002' }] },
  'import/clear-brokerage-context': { ids: ['00000000-0000-5000-8000-000000000001'] },
  'import/link-brokerage-context': {
    rows: [{ id: '00000000-0000-5000-8000-000000000001', brokerage_id: '00000000-0000-5000-8000-000000000003', state: 'OR',
      brokerage_name: 'Acme', f_name: 'acme', source: 'test' }],
  },
  'import/upsert-relationships': {
    rows: [{ line: 2, supervisor_id: TX_BROKERAGE, affiliate_id: '00000000-0000-5000-8000-000000000001', affiliate_role: 'salesperson',
      relationship_type: 'sponsoring_broker', effective_from: '2024-01-01', effective_to: null, source: 'test' }],
  },
  'import/delete-demo-credentials': { state: 'OR' },
  'import/any-credential': {},
  'import/any-relationship': {},
  'engine/neo4j/credentials': { ids: [TX_AGENT, TX_BROKERAGE] },
  'engine/neo4j/licensees': { ids: [TX_AGENT, TX_BROKERAGE], day: '2026-11-22', levels: 2 },
  'engine/neo4j/hierarchy': { ids: [TX_AGENT], day: '2026-11-22' },
  'engine/neo4j/affiliations': { ids: [TX_AGENT], day: '2026-11-22', as_of: false, include_inactive: false, affiliate_role: null, relationship_type: null },
  'engine/neo4j/search': {
    query: 'state:"TX" AND f_last:*mu*', skip: 0, limit: 10,
    name_term_0: 'jose', first_name_term_0: 'jo', last_name_term_0: 'mu', business_name_term_0: 'acme',
    city_term_0: 'hou', status: 'active', license_type: 'salesperson', license_number_prefix: '7638',
    brokerage_term_0: 'acme', brokerage_types: ['sponsoring_broker', 'employing_broker', 'main_office'], today: '2026-11-01',
  },
  'engine/neo4j/affiliates': { id: TX_BROKERAGE, today: '2026-11-22', affiliate_role: null, relationship_type: null, skip: 0, limit: 25 },
  'import/read-models-present': {},
  'import/supervision-state-pairs': {},
  'import/delete-supervisor-lists': { state: 'OR' },
  'import/delete-affiliate-lists': { state: 'OR' },
  'refresh/create-credentials': { rows: [{ ...CREDENTIAL_ROW, id: '00000000-0000-5000-8000-000000000011' }] },
  'refresh/link-created-credentials': { state: 'OR', rows: [{ id: '00000000-0000-5000-8000-000000000011', licensee_id: '00000000-0000-5000-8000-000000000002' }] },
  'refresh/update-credentials': { rows: [CREDENTIAL_ROW] },
  'refresh/touch-credentials': { rows: [{ id: CREDENTIAL_ROW.id, snapshot_date: '2026-11-08', last_verified: '2026-11-08T00:00:00.000Z', data_source_notes: ['n'], doc: '[]' }] },
  'refresh/move-holders': { rows: [{ id: '00000000-0000-5000-8000-000000000001', licensee_id: '00000000-0000-5000-8000-000000000009', entity_type: 'person', display_name: 'A B', licensee_key: null }] },
  'refresh/link-brokerage-context': {
    rows: [{ id: '00000000-0000-5000-8000-000000000001', brokerage_id: '00000000-0000-5000-8000-000000000003', state: 'OR', brokerage_name: 'Acme', f_name: 'acme', source: 'test' }],
  },
  'refresh/existing-credentials': { state: 'TX' },
  'refresh/open-links': { state: 'TX', source: 'fixture' },
  'refresh/known-credentials': { ids: [TX_AGENT, 'nope'] },
  'refresh/credential-numbers': { ids: [TX_AGENT, 'nope'] },
  'refresh/reopen-links': {
    rows: [{ supervisor_id: TX_BROKERAGE, affiliate_id: TX_AGENT, relationship_type: 'sponsoring_broker', effective_from: '2020-06-01', affiliate_role: 'salesperson', source: 'fixture' }],
  },
  'refresh/create-links': {
    rows: [{ supervisor_id: TX_AGENT, affiliate_id: TX_BROKERAGE, relationship_type: 'supervising_inspector', effective_from: '2026-01-01', affiliate_role: 'inspector', source: 'test' }],
  },
  'refresh/close-links': {
    rows: [{ supervisor_id: TX_AGENT, affiliate_id: TX_BROKERAGE, relationship_type: 'supervising_inspector', effective_from: '2026-01-01', effective_to: '2026-06-01' }],
  },
  'refresh/delete-links': {
    rows: [{ supervisor_id: TX_AGENT, affiliate_id: TX_BROKERAGE, relationship_type: 'supervising_inspector', effective_from: '2026-01-01' }],
  },
  'refresh/mark-left-source': {
    rows: [{ id: '00000000-0000-5000-8000-000000000001', status: 'Not in source file', data_source_notes: ['left'], doc: '{}', left_source_on: '2026-11-20' }],
  },
  'refresh/record-run': { source: 'wa-dol', snapshot: '2026-11-20', run: '{}', now: '2026-11-22T00:00:00.000Z', rows: 1 },
  'refresh/last-snapshot': { source: 'tx-trec' },
  'refresh/last-run': { source: 'tx-trec' },
  'import/delete-orphan-licensees': {},
  'import/delete-orphan-brokerages': {},
  'import/refresh-counts': { rows: [{ state: 'OR', rows: 1 }], now: '2026-11-22T00:00:00.000Z' },
  'import/write-counts': { rows: [{ state: 'OR', rows: 1, active: 1 }], now: '2026-11-22T00:00:00.000Z' },
  'import/mark-run': { id: '6f1c2d3e-0000-4000-8000-000000000001', at: '2026-11-22T00:00:00.000Z' },
  'import/run-landed': { id: '6f1c2d3e-0000-4000-8000-000000000001' },
  'import/forget-run': { id: '6f1c2d3e-0000-4000-8000-000000000001' },
  'import/state-has-real-credentials': { state: 'TX' },
  'import/relationship-ends': { rows: [{ supervisor_id: TX_BROKERAGE, affiliate_id: TX_AGENT, relationship_type: 'sponsoring_broker', effective_from: '2020-01-01' }] },
  'import/loaded-counts': { states: ['TX', 'NY'] },
};
