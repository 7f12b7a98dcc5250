// Removes the affiliate lists of $state before they are written afresh
// (engine/neo4j/affiliate-list.cypher, or src/ingest/read-models.ts on LadybugDB).
MATCH (x:AffiliateList)
WHERE x.state = $state
DELETE x
