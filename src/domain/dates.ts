/** True for a YYYY-MM-DD string naming a day that exists (no 2025-02-30). */
export function isRealDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  // Arithmetic, not Date: this runs three times per ingested row.
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/**
 * The days a caller may name, as dates or in moments and cursors: within what every store holds
 * (PostgreSQL has no year 0, JSON's ISO strings no fifth digit) and around any licence's dates.
 */
export const DATE_RANGE = { first: '1900-01-01', last: '2999-12-31' } as const;
export const DATE_RANGE_MESSAGE = `must be a day from ${DATE_RANGE.first} to ${DATE_RANGE.last}`;

/** True for a YYYY-MM-DD day (a moment's first ten characters) inside DATE_RANGE. */
export const inDateRange = (day: string): boolean => day >= DATE_RANGE.first && day <= DATE_RANGE.last;

/** What is wrong with a day a caller sent, or undefined. */
export function dayProblem(v: string): string | undefined {
  if (!isRealDate(v)) return 'must be a date in the form YYYY-MM-DD that exists';
  if (!inDateRange(v)) return DATE_RANGE_MESSAGE;
  return undefined;
}
