// Neo4j: the exact total and one page of credential ids matching a search, in the documented order
// (state, sort_key, id). $query: a Lucene query on the full-text index license_credential_names
// (whitespace analyzer over folded fields, so each term is a wildcard *term* on a field's words: a
// substring of the field, as terms hold no white space), with the states and licence type as
// exact terms; the status (which a refresh may leave pending, outside the index) and the other
// filters from search.filters.cypher. $skip, $limit: integers.
// :param query => 'state:"FL" AND f_last:*smi*'
// :param skip => 0
// :param limit => 25
// :param g => 0
CALL db.index.fulltext.queryNodes('license_credential_names', $query) YIELD node AS c
WITH c WHERE coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g
// @filters
WITH c
ORDER BY c.state, c.sort_key, c.id
WITH collect(c.id) AS ids
// A list index past 2^31 fails, so a page past the end is not sliced.
RETURN size(ids) AS total, CASE WHEN $skip >= size(ids) THEN [] ELSE ids[$skip..$skip + $limit] END AS ids
