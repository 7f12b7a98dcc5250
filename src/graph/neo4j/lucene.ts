import type { SearchFilters } from '../../domain/search-filters.js';
import type { GramField } from './keys.js';

/**
 * Filters the Lucene query carries; the others stay Cypher fragments. The full-text page checks
 * the status on the nodes instead (a refresh's pending values are not in the index: reads.ts).
 */
export const LUCENE_FILTERS = new Set(['name', 'first_name', 'last_name', 'business_name', 'city', 'status', 'license_type']);

/** A search term as a Lucene wildcard on one field: the term anywhere in one of its words. */
const contains = (field: string, term: string) => `${field}:*${term.replace(/[+\-&|!(){}[\]^"~*?:\\/]/g, '\\$&')}*`;
const exactly = (field: string, value: string) => `${field}:"${value.replace(/["\\]/g, '\\$&')}"`;

/**
 * The Lucene query on the full-text index license_credential_names for a search's states, name
 * and city terms, status and type; undefined without a text term (the range indexes serve those).
 */
export function luceneQuery(f: SearchFilters): string | undefined {
  const terms = [
    ...f.nameTerms.map((t) => `(${['f_full', 'f_first', 'f_last', 'f_business'].map((field) => contains(field, t)).join(' OR ')})`),
    ...f.firstNameTerms.map((t) => contains('f_first', t)),
    ...f.lastNameTerms.map((t) => contains('f_last', t)),
    ...f.businessNameTerms.map((t) => contains('f_business', t)),
    ...f.cityTerms.map((t) => contains('f_city', t)),
  ];
  if (!terms.length) return undefined;
  const clauses = [`(${f.states.map((s) => exactly('state', s)).join(' OR ')})`, ...terms];
  if (f.status) clauses.push(exactly('status_normalized', f.status));
  if (f.licenseType) clauses.push(exactly('license_type', f.licenseType));
  return clauses.join(' AND ');
}

/** Letters by how often they occur in U.S. names, most often first: a piece of rarer letters is held by fewer names. */
const COMMON = 'aenriolstdhcmkubgyjwvpfzxq';
const weight = (ch: string) => {
  const at = COMMON.indexOf(ch);
  return at < 0 ? 0 : COMMON.length - at;
};

/**
 * The three-letter piece of a name term that the fewest names are likely to hold, by its letters,
 * with the names its term looks in; undefined when no name term has three letters. Every match
 * holds each piece of each term in the term's names, so the postings of any one list every match.
 */
export function rarestGram(f: SearchFilters): { field: GramField; piece: string } | undefined {
  const terms: [GramField, string[]][] = [['*', f.nameTerms], ['f', f.firstNameTerms], ['l', f.lastNameTerms], ['b', f.businessNameTerms]];
  const pieces = terms.flatMap(([field, list]) =>
    list.flatMap((t) => {
      const chars = Array.from(t);
      return Array.from({ length: Math.max(0, chars.length - 2) }, (_, i) => ({ field, piece: chars.slice(i, i + 3).join('') }));
    }),
  );
  const score = (p: string) => [...p].reduce((sum, ch) => sum + weight(ch), 0);
  return pieces.sort((a, b) => score(a.piece) - score(b.piece))[0];
}
