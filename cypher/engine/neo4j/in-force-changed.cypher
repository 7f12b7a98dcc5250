// Neo4j: the affiliates with a SUPERVISES link in force on one of two days and not on the other:
// a link that starts or ends after $lo and by $hi (ISO dates, $lo before $hi), found through the
// relationship indexes on the dates.
// :param lo => '2026-11-25'
// :param hi => '2026-11-26'
CALL () {
  MATCH ()-[r:SUPERVISES]->(a) WHERE r.effective_from > date($lo) AND r.effective_from <= date($hi)
  RETURN a.id AS id
  UNION
  MATCH ()-[r:SUPERVISES]->(a) WHERE r.effective_to > date($lo) AND r.effective_to <= date($hi)
  RETURN a.id AS id
}
RETURN id
