// Filter fragments for affiliates.cypher and affiliates-count.cypher.
// @fragment affiliate_role
AND r.affiliate_role = $affiliate_role
// @fragment relationship_type
AND r.relationship_type = $relationship_type
