// Removes the affiliate lists of $state before they are written afresh
// (src/graph/ladybug/read-models.ts; LadybugDB only).
MATCH (x:AffiliateList)
WHERE x.state = $state
DELETE x
