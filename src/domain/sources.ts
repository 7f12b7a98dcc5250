// The state sources this service reads: which states, their publishers, how often they publish
// and what they say about supervision. Data only: the parsers of their files are in ingest/sources/.
import type { JURISDICTION_STATUSES, REFRESH_FREQUENCIES, RelationshipCoverage } from './vocabulary.js';

export interface SourceConfig {
  id: string;
  state: string;
  name: string;
  url: string;
  status: (typeof JURISDICTION_STATUSES)[number];
  refresh_frequency: (typeof REFRESH_FREQUENCIES)[number];
  relationship_coverage: RelationshipCoverage;
  relationship_coverage_notes: string;
}

/** The configured upstream sources: one per state, with what each says about supervision. */
export const SOURCES: Record<string, SourceConfig> = {
  'tx-trec': {
    id: 'tx-trec',
    state: 'TX',
    name: 'Texas Real Estate Commission',
    url: 'https://data.texas.gov/dataset/s7ft-44qi',
    status: 'active',
    refresh_frequency: 'nightly',
    relationship_coverage: 'verified_graph',
    relationship_coverage_notes:
      'TREC publishes the current sponsoring broker, designated broker and supervising inspector of each licence with a start date; ' +
      'ended relationships come from comparing successive snapshots.',
  },
  'fl-dbpr': {
    id: 'fl-dbpr',
    state: 'FL',
    name: 'Florida Department of Business and Professional Regulation',
    url: 'https://www2.myfloridalicense.com/instant-public-records/',
    status: 'active',
    refresh_frequency: 'weekly',
    relationship_coverage: 'verified_graph',
    relationship_coverage_notes:
      'DBPR publishes the employing broker of each licence without dates: a relationship starts at the first snapshot it was seen in ' +
      'and ends at the first snapshot it is missing from.',
  },
  'ca-dre': {
    id: 'ca-dre',
    state: 'CA',
    name: 'California Department of Real Estate',
    url: 'https://www.dre.ca.gov/Licensees/ExamineeLicenseeListDataFiles.html',
    status: 'active',
    refresh_frequency: 'weekly',
    relationship_coverage: 'verified_graph_partial',
    relationship_coverage_notes:
      'CurrList publishes employing brokers of salespersons and the corporation/designated-officer links without dates; ' +
      'broker associates come from a separate file that is not ingested.',
  },
  'ct-dcp': {
    id: 'ct-dcp',
    state: 'CT',
    name: 'Connecticut Department of Consumer Protection',
    url: 'https://data.ct.gov/d/6tja-6vdt',
    status: 'active',
    // The dataset is exported now and then: the copy we know dates from December 2020.
    refresh_frequency: 'irregular',
    relationship_coverage: 'verified_graph_partial',
    relationship_coverage_notes:
      'DCP publishes each active salesperson with the broker supervising them, without dates: a relationship starts at the first snapshot ' +
      'it was seen in and ends at the first snapshot it is missing from. Brokers appear only as the supervisors salespersons name, with ' +
      'their name alone: their own rows, firms\' designated brokers, licence dates, status and addresses are not published. A broker no ' +
      'salesperson names in a snapshot leaves the source.',
  },
  'ny-dos': {
    id: 'ny-dos',
    state: 'NY',
    name: 'New York Department of State',
    url: 'https://data.ny.gov/d/yg7h-zjbf',
    status: 'active',
    refresh_frequency: 'weekly',
    relationship_coverage: 'source_context_only',
    relationship_coverage_notes:
      'The Department of State publishes only the business name each licensee works under: brokerage context, not a verified supervision graph.',
  },
};
