// Plans and their monthly quotas: the one table the service, the docs and the CLI read.
// A lookup is one metered call (a batch of 100 included); quotas reset at 00:00 UTC on the 1st.

export const PLAN_NAMES = ['free', 'starter', 'growth', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  monthlyLookups: number;
  batch: boolean;
  /** Licences the account's watchlist may hold. */
  watchedLicences: number;
  /** States the account may follow whole (every change event of the state). */
  followedStates: number;
  /** Days the verification log keeps each verification (the plan the account is on, not a trial's). */
  verificationRetentionDays: number;
}

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: { name: 'free', monthlyLookups: 25, batch: false, watchedLicences: 25, followedStates: 1, verificationRetentionDays: 90 },
  starter: { name: 'starter', monthlyLookups: 5_000, batch: true, watchedLicences: 1_000, followedStates: 5, verificationRetentionDays: 2 * 366 },
  growth: { name: 'growth', monthlyLookups: 50_000, batch: true, watchedLicences: 10_000, followedStates: 25, verificationRetentionDays: 5 * 366 },
  enterprise: { name: 'enterprise', monthlyLookups: 1_000_000, batch: true, watchedLicences: 100_000, followedStates: 60, verificationRetentionDays: 7 * 366 },
};

export interface PlanHolder {
  plan: PlanName;
  trial_plan: PlanName | null;
  trial_ends_at: string | null;
}

/** The plan in force now: a running trial's paid plan, else the account's own. */
export function effectivePlan(a: PlanHolder, now: Date): Plan {
  if (a.trial_plan && a.trial_ends_at && Date.parse(a.trial_ends_at) > now.getTime()) return PLANS[a.trial_plan];
  return PLANS[a.plan];
}

/** The calendar month (UTC) a moment falls in, and when it resets. */
export function usagePeriod(now: Date): { period: string; starts: Date; resets: Date } {
  const starts = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const resets = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { period: starts.toISOString().slice(0, 7), starts, resets };
}

/** A plan's request rate: `perSecond` on average, at most `burst` at once (a window of burst / perSecond seconds). */
export interface RateLimit {
  perSecond: number;
  burst: number;
}
export type RateLimits = Record<PlanName, RateLimit>;

/** The default rates (RATE_LIMITS overrides them per plan): a fair share beside the monthly quota, far below what one server serves. */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  free: { perSecond: 1, burst: 5 },
  starter: { perSecond: 10, burst: 20 },
  growth: { perSecond: 25, burst: 50 },
  enterprise: { perSecond: 100, burst: 200 },
};
