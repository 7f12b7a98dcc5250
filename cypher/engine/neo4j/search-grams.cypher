// Neo4j: one page of a name search in one state, read in name order from the NAME_GRAM postings
// of one three-letter piece of a term ($gram: state, U+0000, the term's field, the piece,
// U+0000: keys.ts gramPrefix), each a match
// once the filters (every term, status, type) hold on it; at most $budget postings are read. The
// exact total is counted on the full-text index ($query, as search.cypher), reading no node.
// A page short of $limit while the total says more matches lie ahead ran out of budget: the
// caller then reads search.cypher, as when the state's postings are pending (no row).
// :param state => 'FL'
// :param gram => 'FL\u0000lsmi\u0000'
// :param query => 'state:"FL" AND f_last:*smi*'
// :param budget => 1000
// :param skip => 0
// :param limit => 25
// :param g => 0
MATCH (j:Jurisdiction {code: $state}) WHERE j.name_grams_pending IS NULL
CALL () {
  // Every version in the index is one readers see: a state whose credentials a refresh writes
  // waits (name_grams_pending) until it holds no other (versions/postings-done.cypher).
  CALL db.index.fulltext.queryNodes('license_credential_names', $query) YIELD node
  RETURN count(node) AS total
}
CALL () {
  // Hinted: on small or new stores the planner may scan the whole index in order instead.
  MATCH ()-[p:NAME_GRAM]->(c)
  USING INDEX SEEK p:NAME_GRAM(k)
  WHERE p.k STARTS WITH $gram
  WITH p, c ORDER BY p.k LIMIT $budget
  WITH p, c WHERE coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g
  // @filters
  WITH p, c ORDER BY p.k SKIP $skip LIMIT $limit
  RETURN collect(c.id) AS ids
}
RETURN total, ids
