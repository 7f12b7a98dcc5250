// Neo4j: each jurisdiction's rows_version, which a refresh's publish and each import batch move
// for the states whose rows they change (refresh/counts.cypher, versions/imported.cypher), and
// its record count (an export's expected size). Read before search-version.cypher: a token is
// then never newer than the generation read with it.
MATCH (j:Jurisdiction)
RETURN j.code AS code, j.rows_version AS token, j.record_count AS rows
