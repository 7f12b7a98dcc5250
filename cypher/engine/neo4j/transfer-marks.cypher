// Neo4j: the transfer marks of every current SUPERVISES relationship into the credentials $ids,
// which roster-changes.cypher counts transfers by. `came`: the affiliate has a current relationship
// of the same type under another supervisor that ended on its start or up to $window days before;
// `went`: it has ended, and the affiliate has one that started on its end or up to $window days
// after. A relationship's marks hang on the affiliate's relationships alone, so a write's
// affiliates are all whose marks it can change. In a refresh of generation $g, a version the run
// wrote takes them in place, and an older one whose marks change ends at $g while a copy from $g
// carries them (readers of earlier generations keep the marks they saw); $g null (an import, a
// first build) sets them in place. Gives the affiliates whose versions changed.
// :param ids => ['FL|CQ0000001']
// :param window => 90
// :param g => null
UNWIND $ids AS id
MATCH (a:LicenseCredential {id: id})<-[r:SUPERVISES]-(s)
WHERE r.vt IS NULL
WITH a, r, s,
  EXISTS {
    MATCH (a)<-[p:SUPERVISES]-(o)
    WHERE o <> s AND p.vt IS NULL AND p.relationship_type = r.relationship_type AND p.effective_to <= r.effective_from AND p.effective_to >= r.effective_from - duration({days: $window})
  } AS came,
  r.effective_to IS NOT NULL AND EXISTS {
    MATCH (a)<-[n:SUPERVISES]-(o)
    WHERE o <> s AND n.vt IS NULL AND n.relationship_type = r.relationship_type AND n.effective_from >= r.effective_to AND n.effective_from <= r.effective_to + duration({days: $window})
  } AS went
WITH a, r, s, came, went
WHERE r.came IS NULL OR r.came <> came OR r.went <> went
CALL (a, r, s, came, went) {
  WITH a, r, came, went WHERE $g IS NULL OR r.vf = $g OR r.came IS NULL
  SET r.came = came, r.went = went
  RETURN null AS versioned
  UNION
  WITH a, r, s, came, went WHERE $g IS NOT NULL AND coalesce(r.vf, 0) < $g AND r.came IS NOT NULL
  CREATE (s)-[c:SUPERVISES]->(a)
  SET c = properties(r), c.vf = $g, c.came = came, c.went = went
  SET r.vt = $g
  RETURN a.id AS versioned
}
WITH versioned WHERE versioned IS NOT NULL
RETURN DISTINCT versioned AS id
