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

/** Whole days from `from` to `to` (YYYY-MM-DD both); negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The day `days` after `day` (YYYY-MM-DD; negative: before). */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The first day of the calendar month or ISO week (Monday) holding `day`. */
export function periodStart(day: string, period: 'month' | 'week'): string {
  if (period === 'month') return `${day.slice(0, 8)}01`;
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return addDays(day, -weekday);
}

/** The first day of the period after the one starting on `start`. */
export function nextPeriod(start: string, period: 'month' | 'week'): string {
  if (period === 'week') return addDays(start, 7);
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}
