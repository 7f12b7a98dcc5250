// Filter fragments for affiliations.cypher. $as_of is an ISO date string.
// @fragment in_force_on
AND r.effective_from <= date($as_of) AND (r.effective_to IS NULL OR r.effective_to > date($as_of))
// @fragment started_by
AND r.effective_from <= date($as_of)
// @fragment affiliate_role
AND r.affiliate_role = $affiliate_role
// @fragment relationship_type
AND r.relationship_type = $relationship_type
