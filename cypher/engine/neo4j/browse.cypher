// Neo4j: licensees/search.cypher over the versions $g sees: one page of credential ids in the given states matching the filters, in the documented order:
// state, then sort_key (folded last or business name, first, middle, licence number), then id.
// $states: jurisdiction codes; $skip, $limit: integers; filters from search.filters.cypher.
// :param g => 0
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE c.state = code AND coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g
// @filters
WITH c
ORDER BY c.state, c.sort_key, c.id
SKIP $skip LIMIT $limit
RETURN c.id AS id
