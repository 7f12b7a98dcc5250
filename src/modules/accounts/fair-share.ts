import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { QuotaExceededError } from '../../errors.js';
import type { Caller } from '../../http/auth.js';
import { effectivePlan, PLAN_NAMES, type PlanName, type RateLimit, type RateLimits } from '../../domain/plans.js';
import type { SqlStore } from '../../store/sql-store.js';
import { monthlyPolicy } from './metering.js';

/** The rate limiters' table (migration 014), in rate-limiter-flexible's own layout. */
const TABLE = 'rate_limits';

/**
 * Each account's request rate by its plan (docs/accounts.md): a fixed window of burst / perSecond
 * seconds holding `burst` requests, counted by rate-limiter-flexible. One process counts in memory;
 * several (PostgreSQL) count in the shared table, each request one upsert, and an account over its
 * rate is then refused from memory until its window ends. Should the store fail, each process
 * counts on its own (the library's insurance limiter) rather than refuse every call.
 */
/** `quota`: the monthly quota's RateLimit headers of an account, which a refusal carries beside the rate's. */
export function createFairShare(
  store: SqlStore,
  limits: RateLimits,
  now: () => Date,
  refused: (plan: PlanName) => void = () => {},
  quota?: (account: Caller['account']) => Promise<Record<string, string>>,
) {
  const shared = store.kind === 'postgres';
  // rate-limiter-flexible runs its statements as `{text, values, name}` on a pg-like pool.
  const client = {
    async query(q: { text: string; values?: unknown[] }) {
      const rows = await store.query(q.text, q.values);
      return { rows, rowCount: rows.length };
    },
  };
  const limiter = (plan: PlanName, { perSecond, burst }: RateLimit): RateLimiterAbstract => {
    const opts = { keyPrefix: `rate:${plan}`, points: burst, duration: burst / perSecond };
    if (!shared) return new RateLimiterMemory(opts);
    return new RateLimiterPostgres({
      ...opts,
      storeClient: client,
      storeType: 'pool',
      tableName: TABLE,
      tableCreated: true,
      clearExpiredByTimeout: false,
      inMemoryBlockOnConsumed: burst + 1,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  };
  const limiters = Object.fromEntries(PLAN_NAMES.map((p) => [p, limiter(p, limits[p])])) as Record<PlanName, RateLimiterAbstract>;

  const policy = (l: RateLimit) => `"rate";q=${l.burst};w=${l.burst / l.perSecond}`;
  const state = (remaining: number, ms: number) => `"rate";r=${remaining};t=${Math.max(1, Math.ceil(ms / 1000))}`;

  return {
    /**
     * Counts a call against its account's rate: the RateLimit headers its answer carries, or a
     * 429 (QuotaExceededError, limit "rate") naming the rate and when to retry.
     */
    async take(caller: Caller): Promise<Record<string, string>> {
      const at = now();
      const plan = effectivePlan(caller.account, at);
      const l = limits[plan.name];
      try {
        const r = await limiters[plan.name].consume(caller.account.id);
        return { 'RateLimit-Policy': policy(l), RateLimit: state(r.remainingPoints, r.msBeforeNext) };
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        refused(plan.name);
        const wait = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const monthly = await quota?.(caller.account).catch(() => undefined);
        throw new QuotaExceededError(
          `request rate of the ${plan.name} plan exceeded: ${l.perSecond} a second, at most ${l.burst} at once; retry in ${wait} s`,
          wait,
          {
            'RateLimit-Policy': `${monthly?.['RateLimit-Policy'] ?? monthlyPolicy(plan, at)}, ${policy(l)}`,
            RateLimit: `${monthly ? `${monthly.RateLimit}, ` : ''}${state(0, err.msBeforeNext)}`,
          },
          'rate',
        );
      }
    },
    /** Windows that ended an hour ago leave the shared table. */
    async prune(): Promise<void> {
      if (shared) await store.query(`DELETE FROM ${TABLE} WHERE expire < $1`, [now().getTime() - 3600_000]);
    },
  };
}
export type FairShare = ReturnType<typeof createFairShare>;
