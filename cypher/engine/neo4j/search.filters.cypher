// Neo4j: the filter fragments of browse.cypher and browse-count.cypher (the brokerage searches the
// search index does not answer), as licensees/search.filters.cypher with the versions $g sees; each starts with AND.
// Text parameters are folded (lower case, accents removed) by the service; one fragment per
// search term, its parameter renamed per term ($name_term -> $name_term_0, ...).
// @fragment name
AND (c.f_full CONTAINS $name_term OR c.f_first CONTAINS $name_term OR c.f_last CONTAINS $name_term OR c.f_business CONTAINS $name_term)
// @fragment first_name
AND c.f_first CONTAINS $first_name_term
// @fragment last_name
AND c.f_last CONTAINS $last_name_term
// @fragment business_name
AND c.f_business CONTAINS $business_name_term
// @fragment city
AND c.f_city CONTAINS $city_term
// @fragment status
AND CASE WHEN c.pg <= $g THEN c.p_status_normalized ELSE c.status_normalized END = $status
// @fragment license_type
AND c.license_type = $license_type
// @fragment license_number
AND c.license_number STARTS WITH $license_number_prefix
// @fragment brokerage
AND (EXISTS { MATCH (c)<-[br:SUPERVISES]-(bs) WHERE coalesce(br.vf, 0) <= $g AND coalesce(br.vt, $g + 1) > $g AND br.effective_from <= date($today) AND (br.effective_to IS NULL OR br.effective_to > date($today)) AND br.relationship_type IN $brokerage_types AND (bs.f_business CONTAINS $brokerage_term OR bs.f_full CONTAINS $brokerage_term) } OR EXISTS { MATCH (c)-[:AFFILIATED_WITH]->(bb:Brokerage) WHERE bb.f_name CONTAINS $brokerage_term })
