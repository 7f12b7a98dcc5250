// The keys of the structures Neo4j's pages read, as the offline import writes them; the Cypher
// that every other write runs computes the same (cypher/engine/neo4j/in-force-add.cypher,
// name-grams.cypher), and test/e2e/neo4j-offline-import.test.ts compares the two.

/** Sorts before every character a key part holds. */
const PART = '\u0000';
/** Sorts after every character a key part holds: a null sorts last, as in ORDER BY. */
const NONE = '\uffff';

/** The page_key of a SUPERVISES_IN_FORCE relationship: sorts in the domain's affiliates order (AffiliateRecord). */
export const inForceKey = (sortKey: string, affiliateId: string, r: { relationship_type: string; effective_from: string; affiliate_role: string | null; effective_to: string | null }) =>
  [sortKey, affiliateId, r.relationship_type, r.effective_from, r.affiliate_role ?? NONE, r.effective_to ?? NONE].join(PART);

/** Which names a search term looks in, as a NAME_GRAM key marks them: any of them, first, last, business. */
export type GramField = '*' | 'f' | 'l' | 'b';

/** A NAME_GRAM key's start: every posting of a piece of one field in one state, in name order after it. */
export const gramPrefix = (state: string, field: GramField, piece: string) => `${state}${PART}${field}${piece}${PART}`;

/**
 * The keys of a credential's NAME_GRAM postings: each distinct three-letter piece (in code points,
 * as Cypher's substring counts) of a word of its folded names, among all of them ('*') and per
 * name (first, last, business); each key the piece's prefix and the sort key.
 */
export function nameGramKeys(state: string, sortKey: string, names: { full: string | null; first: string | null; last: string | null; business: string | null }): string[] {
  const keys = new Set<string>();
  const fields: [GramField, (string | null)[]][] = [['*', [names.full, names.first, names.last, names.business]], ['f', [names.first]], ['l', [names.last]], ['b', [names.business]]];
  for (const [field, texts] of fields) {
    for (const word of texts.map((n) => n ?? '').join(' ').split(' ')) {
      const chars = Array.from(word);
      for (let i = 0; i + 3 <= chars.length; i++) keys.add(`${gramPrefix(state, field, chars.slice(i, i + 3).join(''))}${sortKey}`);
    }
  }
  return [...keys];
}
