// The relationship coverage of every jurisdiction on file (a few dozen rows). No parameters.
MATCH (j:Jurisdiction)
RETURN j.code AS code, j.relationship_coverage AS relationship_coverage
