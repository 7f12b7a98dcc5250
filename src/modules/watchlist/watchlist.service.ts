import { canonicalLicenseNumber, credentialId } from '../../domain/identity.js';
import { effectivePlan } from '../../domain/plans.js';
import { DEFAULT_EXPIRY_DAYS } from '../../domain/expiries.js';
import { NotFoundError, PaymentRequiredError } from '../../errors.js';
import type { Account } from '../accounts/account.js';
import type { SqlTx } from '../../store/sql-store.js';
import type { WatchItem, WatchlistRepo, WatchedRow } from './watchlist.repo.js';

const view = (r: WatchedRow) => ({ state: r.state, license_number: r.license_number, license_credential_id: r.credential_id, added_at: r.added_at });

/** The licences an account watches, within its plan's limit. */
export function createWatchlistService(repo: WatchlistRepo, now: () => Date) {
  const item = (ref: { state: string; license_number: string }) => {
    const number = canonicalLicenseNumber(ref.license_number);
    return { credential_id: credentialId(ref.state, number), state: ref.state, license_number: number };
  };
  async function expiryAlerts(account: Account) {
    const days = await repo.expiryDays(account.id);
    return { days: [...(days ?? DEFAULT_EXPIRY_DAYS)].sort((a, b) => b - a), default: days === null };
  }
  return {
    async add(account: Account, refs: { state: string; license_number: string }[]) {
      const plan = effectivePlan(account, now());
      const items = [...new Map(refs.map((r) => item(r)).map((i) => [i.credential_id, i])).values()];
      const result = await repo.add(account.id, items, plan.watchedLicences);
      if (result.over) {
        throw new PaymentRequiredError(
          `the ${plan.name} plan watches at most ${plan.watchedLicences.toLocaleString('en-US')} licences: this account watches ${result.watched} and the request adds ${result.adding}; remove some or upgrade`,
        );
      }
      return { added: result.added, already_watched: result.already, watched: result.watched, limit: plan.watchedLicences };
    },
    /**
     * In the caller's transaction `tx`: puts licences (distinct, in the order given) on the
     * account's watchlist as far as its plan's limit allows; `left_out` names those past it.
     */
    async addInOrder(tx: SqlTx, account: Account, items: WatchItem[]) {
      const limit = effectivePlan(account, now()).watchedLicences;
      const result = await repo.addInOrder(tx, account.id, items, limit);
      return { added: result.added, already_watched: result.already, left_out: result.leftOut, limit };
    },
    async page(account: Account, page: number, perPage: number) {
      const { rows, total } = await repo.page(account.id, (page - 1) * perPage, perPage);
      return { data: rows.map(view), meta: { total, page, per_page: perPage } };
    },
    /** What the account's plan allows now. */
    limits(account: Account) {
      const plan = effectivePlan(account, now());
      return { watchedLicences: plan.watchedLicences, followedStates: plan.followedStates };
    },
    async follow(account: Account, state: string) {
      const plan = effectivePlan(account, now());
      const result = await repo.subscribeState(account.id, state, plan.followedStates);
      if (result.over) {
        throw new PaymentRequiredError(`the ${plan.name} plan follows at most ${plan.followedStates} whole states, and this account follows ${result.states}; stop following one or upgrade`);
      }
      return { state, following: true as const, states: result.states, limit: plan.followedStates };
    },
    expiryAlerts,
    async setExpiryAlerts(account: Account, days: number[]) {
      await repo.setExpiryDays(account.id, [...days].sort((a, b) => b - a));
      return expiryAlerts(account);
    },
    async followed(account: Account) {
      return { data: await repo.subscribedStates(account.id) };
    },
    async unfollow(account: Account, state: string) {
      if (!(await repo.unsubscribeState(account.id, state))) throw new NotFoundError(`this account does not follow ${state}`);
      return { state, following: false as const };
    },
    async remove(account: Account, ref: { state: string; license_number: string }) {
      const i = item(ref);
      if (!(await repo.remove(account.id, i.credential_id))) throw new NotFoundError(`${i.state} ${i.license_number} is not on this account's watchlist`);
      return { state: i.state, license_number: i.license_number, removed: true as const };
    },
  };
}
export type WatchlistService = ReturnType<typeof createWatchlistService>;
