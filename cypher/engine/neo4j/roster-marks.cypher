// Neo4j: the roster marks of every current SUPERVISES relationship into the credentials $ids, which
// roster-changes.cypher counts and orders by. `came`: the affiliate has a current relationship of
// the same type under another supervisor that ended on its start or up to $window days before;
// `went`: it has ended, and the affiliate has one that started on its end or up to $window days
// after. The marks hang on the affiliate's relationships alone,
// so a write's affiliates are all whose marks it can change. In a refresh of generation $g, a
// version the run wrote takes them in place, and an older one whose transfer marks change ends at
// $g while a copy from $g carries them (readers of earlier generations keep the marks they saw);
// $g null (an import) sets them in place.
// :param ids => ['FL|CQ0000001']
// :param window => 90
// :param g => null
UNWIND $ids AS id
MATCH (a:LicenseCredential {id: id})<-[r:SUPERVISES]-(s) USING INDEX a:LicenseCredential(id)
WHERE r.vt IS NULL
// The affiliate's other current relationships, expanded from it: predicates on their properties
// in a pattern would let a plan made on a small graph seek SUPERVISES by a property index instead.
WITH a, r, s, [(a)<-[p:SUPERVISES]-(o) WHERE o <> s AND p.vt IS NULL | p] AS others
WITH a, r, s,
  size([p IN others WHERE p.relationship_type = r.relationship_type AND p.effective_to <= r.effective_from AND p.effective_to >= r.effective_from - duration({days: $window})]) > 0 AS came,
  r.effective_to IS NOT NULL AND size([n IN others WHERE n.relationship_type = r.relationship_type AND n.effective_from >= r.effective_to AND n.effective_from <= r.effective_to + duration({days: $window})]) > 0 AS went
WITH a, r, s, came, went, r.came IS NOT NULL AND (r.came <> came OR r.went <> went) AS moved
WHERE r.came IS NULL OR moved
CALL (r, came, went, moved) {
  WITH r, came, went WHERE $g IS NULL OR r.vf = $g OR NOT moved
  SET r.came = came, r.went = went
}
CALL (a, r, s, came, went, moved) {
  WITH a, r, s, came, went WHERE $g IS NOT NULL AND coalesce(r.vf, 0) < $g AND moved
  CREATE (s)-[c:SUPERVISES]->(a)
  SET c = properties(r), c.vf = $g, c.came = came, c.went = went
  SET r.vt = $g
}
