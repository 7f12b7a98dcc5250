// Neo4j: the brokerage rows of every credential of $states that the readers of generation $g see,
// for the search index's brokerage filter (src/search/search-index.ts): each brokerage-type
// SUPERVISES into it that $g sees, with its dates and the supervisor's folded names. The filter
// itself compares the dates with the day of the search. The affiliated brokerages are
// search-brokerages.cypher (one query of both, a subquery per credential, took a third longer).
// :param states => ['TX', 'FL']
// :param g => 0
// :param types => ['sponsoring_broker', 'employing_broker', 'main_office', 'supervising_broker']
UNWIND $states AS code
MATCH (:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE c.state = code AND coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
MATCH (c)<-[br:SUPERVISES]-(bs)
WHERE coalesce(br.vf, CASE WHEN br.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(br.vt, CASE WHEN br.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND br.relationship_type IN $types AND br.effective_from IS NOT NULL
RETURN c.state AS state, c.id AS id, toString(br.effective_from) AS effective_from, toString(br.effective_to) AS effective_to,
       coalesce(bs.f_full, '') + ' ' + coalesce(bs.f_business, '') AS names
