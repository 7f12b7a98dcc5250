// Neo4j: each jurisdiction's rows_version, which a refresh's publish and each import batch move
// for the states whose rows they change (refresh/counts.cypher, versions/imported.cypher), and
// its record count (an export's expected size). Read between two reads of search-version.cypher
// that agree: the tokens are then those of the generation read with them.
MATCH (j:Jurisdiction)
RETURN j.code AS code, j.rows_version AS token, j.record_count AS rows
