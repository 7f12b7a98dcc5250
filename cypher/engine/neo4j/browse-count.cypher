// Neo4j: licensees/search-count.cypher over the versions $g sees: the exact number of credentials in the given states matching the filters of
// search.filters.cypher. $states: jurisdiction codes.
// :param g => 0
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE c.state = code AND coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g
// @filters
RETURN count(c) AS total
