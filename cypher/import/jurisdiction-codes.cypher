// Codes of every jurisdiction on file; none means an empty graph.
MATCH (j:Jurisdiction)
RETURN j.code AS code
ORDER BY code
