// Removes the affiliate lists of $state before engine/*/affiliate-list.cypher writes them afresh.
MATCH (x:AffiliateList)
WHERE x.state = $state
DELETE x
