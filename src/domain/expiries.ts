// Expiries ahead (docs/changes.md, *Expiries ahead*): when a watched licence's expiration date is
// told, counted in its state's local date.

/** Days before the expiration date an account is told, unless it chose its own. */
export const DEFAULT_EXPIRY_DAYS: readonly number[] = [90, 60, 30, 7, 0];
/** A pass that missed the expiration day itself still tells the 0-day mark this many days after. */
export const EXPIRY_GRACE_DAYS = 7;

/**
 * The time zone whose date a state's regulator keeps: the capital's, for the states that span two
 * (a day's difference at most, for a few hours).
 */
export const STATE_TIME_ZONES: Readonly<Record<string, string>> = {
  AL: 'America/Chicago', AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: 'America/Chicago', CA: 'America/Los_Angeles',
  CO: 'America/Denver', CT: 'America/New_York', DE: 'America/New_York', DC: 'America/New_York', FL: 'America/New_York',
  GA: 'America/New_York', HI: 'Pacific/Honolulu', ID: 'America/Boise', IL: 'America/Chicago', IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago', KS: 'America/Chicago', KY: 'America/New_York', LA: 'America/Chicago', ME: 'America/New_York',
  MD: 'America/New_York', MA: 'America/New_York', MI: 'America/Detroit', MN: 'America/Chicago', MS: 'America/Chicago',
  MO: 'America/Chicago', MT: 'America/Denver', NE: 'America/Chicago', NV: 'America/Los_Angeles', NH: 'America/New_York',
  NJ: 'America/New_York', NM: 'America/Denver', NY: 'America/New_York', NC: 'America/New_York', ND: 'America/Chicago',
  OH: 'America/New_York', OK: 'America/Chicago', OR: 'America/Los_Angeles', PA: 'America/New_York', RI: 'America/New_York',
  SC: 'America/New_York', SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago', UT: 'America/Denver',
  VT: 'America/New_York', VA: 'America/New_York', WA: 'America/Los_Angeles', WV: 'America/New_York', WI: 'America/Chicago',
  WY: 'America/Denver', PR: 'America/Puerto_Rico', VI: 'America/St_Thomas', GU: 'Pacific/Guam', AS: 'Pacific/Pago_Pago',
  MP: 'Pacific/Saipan',
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** The date (YYYY-MM-DD) in `state` at `at` (UTC for a code not listed). */
export function localDate(state: string, at: Date): string {
  const zone = STATE_TIME_ZONES[state] ?? 'UTC';
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return f.format(at);
}

/**
 * The mark to tell for a licence `daysLeft` days from its expiration date: the nearest of `marks`
 * it has reached (so a missed day tells the mark it passed, not every earlier one), none before the
 * first or more than EXPIRY_GRACE_DAYS after the date.
 */
export function expiryMark(daysLeft: number, marks: readonly number[]): number | undefined {
  if (daysLeft < -EXPIRY_GRACE_DAYS) return undefined;
  const reached = marks.filter((m) => daysLeft <= m);
  return reached.length ? Math.min(...reached) : undefined;
}

/** Lapsed: expired by its normalized status, or past its expiration date on `day`. */
export const lapsed = (r: { status_normalized: string | null; expiration_date: string | null }, day: string) =>
  r.status_normalized === 'expired' || (r.expiration_date !== null && r.expiration_date < day);

/** Current: active by its normalized status, and not past its expiration date on `day`. */
export const current = (r: { status_normalized: string | null; expiration_date: string | null }, day: string) =>
  r.status_normalized === 'active' && (r.expiration_date === null || r.expiration_date >= day);
