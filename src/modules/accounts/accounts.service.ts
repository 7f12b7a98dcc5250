import type { Caller } from '../../http/auth.js';
import { parseEmailAddress } from '../../domain/email-address.js';
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { BadRequestError, ConflictError, NotFoundError, UnauthorizedError } from '../../errors.js';
import type { Account } from './account.js';
import type { AccountsRepo, KeyRow } from './accounts.repo.js';
import { PLANS, effectivePlan, type PlanName } from '../../domain/plans.js';

export const KEY_PREFIX = 'lvs_live_';
// 24 random bytes: 192 bits, 32 base64url characters after the prefix.
const KEY_PATTERN = /^lvs_live_[A-Za-z0-9_-]{32}$/;
const AUTH_CACHE_MS = 1000;
/**
 * How long past its second an entry still answers while the store has not answered the lookup
 * begun at half its life (a long write on PGlite's one connection: a refresh's change events).
 */
export const AUTH_STALE_MS = 30_000;
const AUTH_CACHE_MAX = 10_000;

// One-shot hash: no Hash object per call (every authenticated request hashes its key).
export const hashKey = (raw: string) => hash('sha256', raw, 'hex');

declare module '../../http/auth.js' {
  /** A caller is an account's key. */
  interface Caller {
    account: Account;
  }
}

export interface NewAccount {
  email: string;
  plan: PlanName;
  trialPlan?: PlanName | null;
  trialEndsAt?: string | null;
  label?: string | null;
  isDemo?: boolean;
  /** The first key's id; random unless given (the demo account's is fixed, for the API examples). */
  keyId?: string;
}

function newKey(accountId: string, label: string | null, id: string = randomUUID()) {
  const raw = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { raw, row: { id, account_id: accountId, label, prefix: KEY_PREFIX, last_four: raw.slice(-4), key_hash: hashKey(raw) } };
}

/** A key as listed: never the raw value. */
export function keyView(k: KeyRow) {
  return {
    id: k.id,
    label: k.label,
    key_hash: `sha256:${k.key_hash}`,
    prefix: k.prefix,
    last_four: k.last_four,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  };
}

export function accountView(a: Account, now: Date) {
  const plan = effectivePlan(a, now);
  return {
    id: a.id,
    email: a.email,
    plan: a.plan,
    effective_plan: plan.name,
    trial: a.trial_plan ? { plan: a.trial_plan, ends_at: a.trial_ends_at, active: plan.name === a.trial_plan && a.trial_plan !== a.plan } : null,
    monthly_quota: plan.monthlyLookups,
    batch_enabled: plan.batch,
    created_at: a.created_at,
  };
}

function checkTrial(plan: PlanName, trialPlan?: PlanName | null, trialEndsAt?: string | null) {
  if (!trialPlan) return { trial_plan: null, trial_ends_at: null };
  if (!PLANS[trialPlan].batch) throw new BadRequestError('a trial must be of a paid plan (starter, growth or enterprise)');
  if (!trialEndsAt || Number.isNaN(Date.parse(trialEndsAt))) throw new BadRequestError('a trial needs an end date');
  if (trialPlan === plan) throw new BadRequestError(`the account is already on ${plan}`);
  return { trial_plan: trialPlan, trial_ends_at: new Date(trialEndsAt).toISOString() };
}

export function createAccountsService(repo: AccountsRepo, now: () => Date) {
  type Entry = { caller?: Caller; revoked?: boolean; expires: number };
  const cache = new Map<string, Entry>();
  // Lookups in flight, by key hash, and when each began: concurrent callers share one.
  const refreshing = new Map<string, { entry: Promise<Entry>; began: number }>();
  // Bumped when this process changes a key or plan: a lookup that began before keeps its answer out of the cache.
  let changes = 0;
  const forget = (hash: string) => {
    changes += 1;
    cache.delete(hash);
  };

  /** Reads a key from the store and caches what it says for AUTH_CACHE_MS from `t`, when the read began. */
  function lookUp(hash: string, t: number): Promise<Entry> {
    let pending = refreshing.get(hash)?.entry;
    if (!pending) {
      pending = (async () => {
        const seen = changes;
        const found = await repo.keyByHash(hash);
        const matches = found !== undefined && timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex'));
        const entry: Entry = {
          caller: matches && !found.revokedAt ? { account: found.account, keyId: found.keyId } : undefined,
          revoked: matches && !!found.revokedAt,
          expires: t + AUTH_CACHE_MS,
        };
        if (cache.size >= AUTH_CACHE_MAX) cache.clear();
        if (seen === changes) cache.set(hash, entry);
        return entry;
      })().finally(() => refreshing.delete(hash));
      refreshing.set(hash, { entry: pending, began: t });
    }
    return pending;
  }

  async function requireAccount(ref: string): Promise<Account> {
    const a = /^[0-9a-f-]{36}$/i.test(ref) ? await repo.accountById(ref.toLowerCase()) : await repo.accountByEmail(ref.trim().toLowerCase());
    if (!a) throw new NotFoundError(`no account ${ref}`);
    return a;
  }

  return {
    requireAccount,

    async createAccount(input: NewAccount) {
      const parsed = parseEmailAddress(input.email);
      if (!parsed.ok) throw new BadRequestError(`not an e-mail address (${parsed.error}): ${input.email}`);
      const email = parsed.address;
      if (await repo.accountByEmail(email)) throw new ConflictError(`an account with e-mail ${email} exists`);
      const id = randomUUID();
      const key = newKey(id, input.label ?? null, input.keyId);
      const created = await repo.insertAccount(
        { id, email, plan: input.plan, ...checkTrial(input.plan, input.trialPlan, input.trialEndsAt), is_demo: input.isDemo ?? false },
        key.row,
      );
      return { account: created.account, key: { ...keyView(created.key), key: key.raw } };
    },

    /**
     * A free account for a verified address, without a key (the dashboard makes the first); the
     * account on file when the address already has one.
     */
    async createSelfServeAccount(email: string) {
      return repo.insertOrGetAccount({ id: randomUUID(), email: email.trim().toLowerCase(), plan: 'free', trial_plan: null, trial_ends_at: null, is_demo: false });
    },

    accountById: (id: string) => repo.accountById(id),
    accountByEmail: (email: string) => repo.accountByEmail(email.trim().toLowerCase()),

    listAccounts: () => repo.listAccounts(),
    countAccounts: () => repo.countAccounts(),

    async setPlan(ref: string, plan: PlanName, trialPlan?: PlanName | null, trialEndsAt?: string | null) {
      const a = await requireAccount(ref);
      const updated = (await repo.setPlan(a.id, plan, ...Object.values(checkTrial(plan, trialPlan, trialEndsAt)) as [PlanName | null, string | null]))!;
      for (const [hash, entry] of cache) if (entry.caller?.account.id === a.id) forget(hash);
      return updated;
    },

    async createKey(accountId: string, label: string | null) {
      const key = newKey(accountId, label);
      const row = await repo.insertKey(key.row);
      return { ...keyView(row), key: key.raw };
    },

    async listKeys(accountId: string) {
      return (await repo.activeKeys(accountId)).map(keyView);
    },

    /** An account revoking one of its own keys; its last one only from the dashboard (`allowLast`). */
    async revokeKey(accountId: string, keyId: string, options: { allowLast?: boolean } = {}) {
      const { key, last } = await repo.revokeKey(accountId, keyId, options.allowLast);
      if (last) throw new ConflictError('this is the account’s last active key: create another key before deleting it');
      if (!key) throw new NotFoundError(`no API key ${keyId}`);
      forget(key.key_hash);
      return { id: key.id, revoked: true as const, revoked_at: key.revoked_at };
    },

    /** The operator revoking any key. */
    async operatorRevokeKey(keyId: string) {
      const key = await repo.revokeAnyKey(keyId);
      if (!key) throw new NotFoundError(`no API key ${keyId}`);
      forget(key.key_hash);
      return { id: key.id, account_id: key.account_id, revoked: true as const, revoked_at: key.revoked_at };
    },

    /**
     * Resolves an Authorization header to the calling account. Lookups are cached for a second,
     * so a revoked key stops working within a second on every instance.
     */
    async authenticate(header: string | undefined): Promise<Caller> {
      if (!header) throw new UnauthorizedError('missing API key: send Authorization: Bearer <key>');
      const m = /^Bearer +(\S+)$/i.exec(header.trim());
      if (!m || !KEY_PATTERN.test(m[1])) {
        throw new UnauthorizedError(`malformed API key: expected "Authorization: Bearer ${KEY_PREFIX}..." with a key issued by this service`, 'invalid_token');
      }
      const hash = hashKey(m[1]);
      const t = now().getTime();
      let entry = cache.get(hash);
      if (!entry || entry.expires <= t) {
        // A lookup begun in the entry's life and still unanswered means a busy store, not a changed
        // key: callers would all wait behind the store's write. The entry answers on, for a bounded time.
        const inFlight = refreshing.get(hash);
        if (!(entry && inFlight && inFlight.began < entry.expires && t < entry.expires + AUTH_STALE_MS)) entry = await lookUp(hash, t);
      } else if (t - (entry.expires - AUTH_CACHE_MS) >= AUTH_CACHE_MS / 2 && !refreshing.has(hash)) {
        // Past half its life the entry is read again in the background, so that a caller waits
        // for the store only when it was busier than half a second (a long write on PGlite's one
        // connection), never at each expiry.
        lookUp(hash, t).catch(() => undefined);
      }
      if (entry.caller) return entry.caller;
      throw new UnauthorizedError(entry.revoked ? 'API key revoked' : 'unknown API key', 'invalid_token');
    },

    ping: () => repo.ping(),
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
