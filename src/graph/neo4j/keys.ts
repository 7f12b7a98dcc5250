// The keys of the structures Neo4j's pages read, as the offline import writes them; the Cypher
// that every other write runs computes the same (cypher/engine/neo4j/in-force-add.cypher), and
// test/e2e/neo4j-offline-import.test.ts compares the two.

/** Sorts before every character a key part holds. */
const PART = '\u0000';
/** Sorts after every character a key part holds: a null sorts last, as in ORDER BY. */
const NONE = '\uffff';

/** The page_key of a SUPERVISES_IN_FORCE relationship: sorts in the domain's affiliates order (AffiliateRecord). */
export const inForceKey = (sortKey: string, affiliateId: string, r: { relationship_type: string; effective_from: string; affiliate_role: string | null; effective_to: string | null }) =>
  [sortKey, affiliateId, r.relationship_type, r.effective_from, r.affiliate_role ?? NONE, r.effective_to ?? NONE].join(PART);
