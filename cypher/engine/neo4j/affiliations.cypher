// Neo4j: the SUPERVISES relationships into each credential of $ids with their supervisors (the
// repository orders them: newest first, then the supervisor's licence number and the relationship
// type).
// Without $as_of: those in force on $day (today), or all of them with $include_inactive. With
// $as_of (as $day): those in force that day, or with $include_inactive every one started by then.
// $affiliate_role and $relationship_type filter when not null.
// :param ids => ['TX|0123456-SA']
// :param day => '2024-06-30'
// :param as_of => true
// :param include_inactive => false
// :param affiliate_role => null
// :param relationship_type => null
// A row for each credential on file (its list may be empty), none for one that is not.
// :param g => 0
UNWIND $ids AS id
CALL (id) {
  MATCH (c:LicenseCredential {id: id}) USING INDEX c:LicenseCredential(id) RETURN c
  UNION
  MATCH (c:Superseded {id: id}) USING INDEX c:Superseded(id) RETURN c
}
WITH c WHERE coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
RETURN c.id AS id, [(c)<-[r:SUPERVISES]-(s)
        WHERE coalesce(r.vf, CASE WHEN r.relationship_type IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(r.vt, CASE WHEN r.relationship_type IS NULL THEN $g ELSE $g + 1 END) > $g AND CASE WHEN $include_inactive THEN NOT $as_of OR r.effective_from <= date($day)
                   ELSE r.effective_from <= date($day) AND (r.effective_to IS NULL OR r.effective_to > date($day)) END
          AND ($affiliate_role IS NULL OR r.affiliate_role = $affiliate_role)
          AND ($relationship_type IS NULL OR r.relationship_type = $relationship_type)
        | {id: s.id, license_number: s.license_number, full_name: s.full_name, business_name: s.business_name,
           affiliate_role: r.affiliate_role, relationship_type: r.relationship_type,
           effective_from: toString(r.effective_from), effective_to: toString(r.effective_to)}] AS affiliations
