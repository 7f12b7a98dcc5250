// Links credentials (whose business-name links were just cleared) to the brokerage their source
// names by business name only. $rows: maps with id, brokerage_id, state, brokerage_name, f_name, source.
UNWIND $rows AS r
MATCH (c:LicenseCredential {id: r.id})
MERGE (b:Brokerage {id: r.brokerage_id})
SET b.state = r.state, b.name = r.brokerage_name, b.f_name = r.f_name
CREATE (c)-[:AFFILIATED_WITH {basis: 'business_name', source: r.source}]->(b)
