import { CHANGE_TYPES, changeTypeNamed, publishedChange, type ChangeEvent } from '../../domain/changes.js';
import type { Clock } from '../../domain/clock.js';
import { GoneError, ValidationError } from '../../errors.js';
import { cursorCodec } from '../../http/cursor.js';
import type { ChangeLog } from './change-log.js';
import type { ChangesRepo, StoredChange } from './changes.repo.js';

const DAY_MS = 86_400_000;

/** A feed position as clients hold it: `seq:<n>`. */
const cursors = cursorCodec<number>(
  (seq) => `seq:${seq}`,
  (text) => {
    const m = /^seq:(\d{1,15})$/.exec(text);
    return m ? Number(m[1]) : undefined;
  },
);

const view = ({ seq, ...e }: StoredChange) => publishedChange(seq, e);

/** The types a `types` filter names on `today` (an old name as its new one while it is accepted); 422 naming the unknown ones. */
function typesOn(names: string[], today: string) {
  const types = names.map((n) => changeTypeNamed(n, today));
  const unknown = names.filter((_, i) => !types[i]);
  if (unknown.length) {
    throw new ValidationError([{ loc: ['query', 'types'], msg: `unknown event types ${unknown.join(', ')}; known: ${CHANGE_TYPES.join(', ')}`, type: 'value_error', input: names.join(',') }]);
  }
  return types as string[];
}

/** The change feed, and the change log refreshes record into (see change-log.ts). */
/**
 * @param published called once a run's events (and their webhook deliveries) are published.
 * @param derive derives a committed run's alerts (alerts.ts); a run it failed on is derived again by the next recovery.
 */
export function createChangesService(repo: ChangesRepo, clock: Clock, retentionDays: number, published?: () => void, derive?: (runId: string) => Promise<void>) {
  const log: ChangeLog = {
    stage: (run, events: ChangeEvent[], from?: number) => repo.stage(run, events, from),
    commit: async (runId) => {
      await repo.commit(runId);
      published?.();
      if (derive) {
        await derive(runId);
        published?.();
      }
    },
    discard: (runId) => repo.discard(runId),
    async recover(source, landed) {
      for (const runId of await repo.stagedRuns(source)) {
        if (await landed(runId)) await log.commit(runId);
        else await repo.discard(runId);
      }
      if (derive) for (const runId of await repo.underivedRuns(source)) await derive(runId);
    },
  };
  return {
    log,
    /** Settles every run a crash left staged (at start). */
    async recoverAll(landed: (source: string, runId: string) => Promise<boolean>) {
      for (const source of await repo.stagedSources()) await log.recover(source, (runId) => landed(source, runId));
    },
    /** Events oldest first, from `cursor` (or from `since`, a date, on a first call). */
    async feed(q: { account: string; cursor?: string; since?: string; state?: string; types?: string[]; limit: number }) {
      const types = q.types && typesOn(q.types, clock.today());
      const after = q.cursor === undefined ? 0 : cursors.decode(q.cursor);
      if (q.cursor !== undefined && after < (await repo.prunedThrough())) {
        throw new GoneError(`this cursor is older than the ${retentionDays} days of events kept: start again with since`);
      }
      // One more than asked: whether more are waiting now.
      const rows = await repo.list({ afterSeq: after, account: q.account, since: q.cursor ? undefined : q.since, states: q.state ? [q.state] : undefined, types, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page.at(-1)?.seq ?? (q.cursor !== undefined ? after : undefined);
      return { data: page.map(view), next_cursor: last === undefined ? null : cursors.encode(last), has_more: rows.length > q.limit };
    },
    prune: () => repo.prune(new Date(clock.now().getTime() - retentionDays * DAY_MS)),
    /** The service's day (UTC), for views that start from a recent day. */
    today: () => clock.today(),
  };
}
export type ChangesService = ReturnType<typeof createChangesService>;
