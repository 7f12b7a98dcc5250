// Number of jurisdictions on file; zero means an empty graph.
MATCH (j:Jurisdiction)
RETURN count(j) AS total
