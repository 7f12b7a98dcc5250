import type { GraphAdapters } from '../../src/graph/adapters-port.js';

/** Everything an import writes, outside WY (the state that makes a graph non-empty below). */
export async function contents(graph: GraphAdapters) {
  const read = (q: string) => graph.engine.read(q);
  return {
    credentials: await read(
      "MATCH (c:LicenseCredential) WHERE c.state <> 'WY' RETURN c.id AS id, c.doc AS doc, c.row_hash AS row_hash, c.status_normalized AS s, c.f_full AS f, c.sort_key AS k, c.data_source_notes AS notes, c.snapshot_date AS snap, c.last_verified AS v, c.issue_date AS issued, c.address_line2 AS line2 ORDER BY id",
    ),
    licensees: await read("MATCH (l:Licensee)-[:HOLDS]->(c:LicenseCredential) WHERE c.state <> 'WY' RETURN l.id AS lid, c.id AS cid, l.entity_type AS e, l.display_name AS d, l.licensee_key AS k ORDER BY cid"),
    states: await read("MATCH (c:LicenseCredential)-[:IN_JURISDICTION]->(j:Jurisdiction) WHERE j.code <> 'WY' RETURN c.id AS cid, j.code AS code ORDER BY cid"),
    links: await read(
      'MATCH (s:LicenseCredential)-[r:SUPERVISES]->(a:LicenseCredential) RETURN s.id AS sid, a.id AS aid, r.affiliate_role AS role, r.relationship_type AS t, r.effective_from AS f, r.effective_to AS u, r.source AS src ORDER BY sid, aid, t, f',
    ),
    brokerages: await read('MATCH (c:LicenseCredential)-[w:AFFILIATED_WITH]->(b:Brokerage) RETURN c.id AS cid, b.id AS bid, b.name AS n, w.basis AS basis ORDER BY cid'),
    counts: await read("MATCH (j:Jurisdiction) WHERE j.code <> 'WY' RETURN j.code AS code, j.record_count AS n, j.active_record_count AS active, j.last_updated AS at ORDER BY code"),
    // The read models: the bulk path builds them from the rows it parsed, the upsert path from an
    // export of the graph.
    supervisorLists: await read("MATCH (x:SupervisorList) WHERE x.state <> 'WY' RETURN x.id AS id, x.state AS state, x.entries AS entries ORDER BY id"),
    affiliateLists: await read("MATCH (x:AffiliateList) WHERE x.state <> 'WY' RETURN x.id AS id, x.state AS state, x.entries AS entries ORDER BY id"),
  };
}
