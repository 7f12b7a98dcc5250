import type { GraphEngine } from '../../src/graph/graph-port.js';
import type { SearchFilters } from '../../src/domain/search-filters.js';
import { BROKERAGE_RELATIONSHIP_TYPES } from '../../src/domain/vocabulary.js';

type Text = string | null;
interface Credential {
  state: string;
  id: string;
  sort_key: string;
  license_number: string;
  status: Text;
  license_type: Text;
  f_full: Text;
  f_first: Text;
  f_last: Text;
  f_business: Text;
  f_city: Text;
}

/**
 * The documented search semantics as a plain scan of every credential, read from the embedded
 * graph by simple MATCHes: the oracle the search index (src/search/) is checked against. A scan
 * rather than a Cypher search: LadybugDB 0.19 miscounts EXISTS subqueries in some query shapes
 * (a brokerage filter matched every supervised credential). `search` reads the graph each time.
 */
export async function searchOracle(graph: Pick<GraphEngine, 'read'>) {
  const credentials = (await graph.read(
    'MATCH (c:LicenseCredential) RETURN c.state AS state, c.id AS id, c.sort_key AS sort_key, c.license_number AS license_number, c.status_normalized AS status, ' +
      'c.license_type AS license_type, c.f_full AS f_full, c.f_first AS f_first, c.f_last AS f_last, c.f_business AS f_business, c.f_city AS f_city',
  )) as unknown as Credential[];
  const links = (await graph.read(
    'MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential) RETURN c.id AS id, r.relationship_type AS type, CAST(r.effective_from AS STRING) AS from_, ' +
      'CAST(r.effective_to AS STRING) AS to_, s.f_full AS full, s.f_business AS business',
  )) as { id: string; type: string; from_: Text; to_: Text; full: Text; business: Text }[];
  const brokerages = (await graph.read('MATCH (c:LicenseCredential)-[:AFFILIATED_WITH]->(b:Brokerage) RETURN c.id AS id, b.f_name AS name')) as { id: string; name: Text }[];
  const has = (v: Text, term: string) => v !== null && v.includes(term);
  const brokered = (c: Credential, term: string, today: string) =>
    links.some(
      (l) =>
        l.id === c.id &&
        (BROKERAGE_RELATIONSHIP_TYPES as readonly string[]).includes(l.type) &&
        l.from_ !== null &&
        l.from_ <= today &&
        (l.to_ === null || l.to_ > today) &&
        (has(l.full, term) || has(l.business, term)),
    ) || brokerages.some((b) => b.id === c.id && has(b.name, term));
  const matches = (c: Credential, f: SearchFilters) =>
    f.nameTerms.every((t) => has(c.f_full, t) || has(c.f_first, t) || has(c.f_last, t) || has(c.f_business, t)) &&
    f.firstNameTerms.every((t) => has(c.f_first, t)) &&
    f.lastNameTerms.every((t) => has(c.f_last, t)) &&
    f.businessNameTerms.every((t) => has(c.f_business, t)) &&
    f.cityTerms.every((t) => has(c.f_city, t)) &&
    f.brokerageTerms.every((t) => brokered(c, t, f.today)) &&
    (f.status === undefined || c.status === f.status) &&
    (f.licenseType === undefined || c.license_type === f.licenseType) &&
    (!f.licenseNumberPrefix || c.license_number.startsWith(f.licenseNumberPrefix));
  const order = (a: Credential, b: Credential) => (a.state < b.state ? -1 : a.state > b.state ? 1 : a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : a.id < b.id ? -1 : 1);
  return {
    search(f: SearchFilters, skip: number, limit: number): { ids: string[]; total: number } {
      const found = credentials.filter((c) => f.states.includes(c.state) && matches(c, f)).sort(order);
      return { ids: found.slice(skip, skip + limit).map((c) => c.id), total: found.length };
    },
  };
}
