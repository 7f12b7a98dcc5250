// Neo4j: licensees/type-counts.cypher over the versions $g sees: credential counts by state and normalized licence type. $states: jurisdiction codes.
// :param g => 0
UNWIND $states AS code
MATCH (j:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
RETURN j.code AS state, c.license_type AS license_type, count(c) AS count
ORDER BY state, license_type
