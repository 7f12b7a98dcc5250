// Neo4j: the search row of every credential of $states that the readers of generation $g see, for
// the search index (src/search/search-index.ts), which puts them in result order itself. Entered by
// each jurisdiction: its credentials' versions are all linked to it (a version a later,
// unpublished run replaced carries Superseded and is read while $g sees it); the status is the one
// a published refresh may have left pending.
// :param states => ['TX', 'FL']
// :param g => 0
UNWIND $states AS code
MATCH (:Jurisdiction {code: code})<-[:IN_JURISDICTION]-(c)
WHERE c.state = code AND coalesce(c.vf, CASE WHEN c.id IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(c.vt, CASE WHEN c.id IS NULL THEN $g ELSE $g + 1 END) > $g
RETURN c.state AS state, c.id AS id, c.sort_key AS sort_key, c.license_number AS license_number,
       CASE WHEN c.pg <= $g THEN c.p_status_normalized ELSE c.status_normalized END AS status,
       c.license_type AS license_type, c.f_full AS f_full, c.f_first AS f_first, c.f_last AS f_last,
       c.f_business AS f_business, c.f_city AS f_city
