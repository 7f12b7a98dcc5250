// Matches a caller's name against the names a licence record holds (GET /licensees/verify?name=...).

export const NAME_MATCH_RESULTS = ['exact', 'close', 'mismatch'] as const;
export type NameMatchResult = (typeof NAME_MATCH_RESULTS)[number];

/** What a caller sent: `name` (free text, any order, "LAST, FIRST M" or "First M. Last", or a business name) or first_name + last_name (either alone is allowed too). */
export interface NameQuery { name?: string; first_name?: string; last_name?: string }

/** The names a licence record holds (any may be null/undefined). */
export interface RecordNames { full_name?: string | null; first_name?: string | null; middle_name?: string | null; last_name?: string | null; business_name?: string | null }

export interface NameMatch { result: NameMatchResult; score: number; compared_with: { field: 'full_name' | 'business_name'; value: string } }

/** null when the record holds no name to compare with. Not written yet: the labelled set is frozen first. */
export function matchName(_query: NameQuery, _record: RecordNames): NameMatch | null {
  throw new Error('matchName is not written yet');
}
