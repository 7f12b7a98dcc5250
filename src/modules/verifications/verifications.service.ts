import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../../domain/clock.js';
import { effectivePlan, type PlanHolder } from '../../domain/plans.js';
import type { Verdict } from '../../domain/verdict.js';
import { canonicalLicenseNumber } from '../../domain/identity.js';
import { NotFoundError } from '../../errors.js';
import { cursorCodec, isCursorMoment } from '../../http/cursor.js';
import type { ServedAnswer } from '../../http/served-answer.js';
import type { SqlTx } from '../../store/sql-store.js';
import { nameSent, type AnsweredItem } from '../licensees/verification.js';
import { groupCommit } from './group-commit.js';
import { callIdOf, callTags, itemId, type CallRow, type Operation, type PagePosition, type RecordRow, type StoredItem, type VerificationFilters, type VerificationsRepo } from './verifications.repo.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A page's position as its clients hold it: `<created_at>|<call id>|<position>`. */
const cursors = cursorCodec<PagePosition>(
  (p) => `${p.created_at}|${p.call_id}|${p.position}`,
  (text) => {
    const [createdAt, callId, position, ...rest] = text.split('|');
    if (rest.length || !isCursorMoment(createdAt) || !UUID.test(callId ?? '') || !/^\d{1,3}$/.test(position ?? '')) return undefined;
    return { created_at: createdAt, call_id: callId, position: Number(position) };
  },
);

export interface ListQuery {
  from?: Date;
  to?: Date;
  state?: string;
  license_number?: string;
  verdicts?: Verdict[];
  cursor?: string;
  per_page: number;
}

const filtersOf = (q: Omit<ListQuery, 'cursor' | 'per_page'>): VerificationFilters => ({
  from: q.from,
  to: q.to,
  state: q.state,
  license_key: q.license_number === undefined ? undefined : canonicalLicenseNumber(q.license_number),
  verdicts: q.verdicts,
});

/** The public record: an item with its call's fields. */
const publicRecord = ({ call_id, position, key_id, created_at, operation, http_status, body_sha256, item: it }: RecordRow) => ({
  id: itemId(call_id, position),
  created_at,
  key_id,
  operation,
  index: it.i ?? null,
  state: it.s,
  license_number: it.n,
  name_sent: it.a ?? null,
  verified: it.v,
  verdict: it.d,
  reasons: it.r,
  name_match: it.m ?? null,
  license_status: it.st ?? null,
  expiration_date: it.ex ?? null,
  source_id: it.src ?? null,
  snapshot_date: it.sd ?? null,
  last_verified: it.lv ?? null,
  http_status,
  body_sha256,
});
export type VerificationRecord = ReturnType<typeof publicRecord>;

/**
 * How records reach the store: `append` resolves once they are committed (where the store's
 * durability puts them), `flush` once what was appended is readable, `close` at a stop.
 */
export interface RecordWriter {
  append(calls: CallRow[]): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Records written straight to the store, concurrent calls' in one statement. */
export const directWriter = (repo: VerificationsRepo): RecordWriter => ({
  append: groupCommit<CallRow>((calls) => repo.insertJson(JSON.stringify(calls))),
  flush: async () => {},
  close: async () => {},
});

/**
 * The stored form of what one call answered (its records' ids are `itemId(call.id, position)`),
 * kept as long as the plan in force keeps records.
 */
export function callOf(caller: { account: PlanHolder & { id: string }; keyId: string | null }, operation: Operation, items: AnsweredItem[], served: ServedAnswer, now: Date): CallRow {
  const keepUntil = new Date(now.getTime() + effectivePlan(caller.account, now).verificationRetentionDays * 86_400_000).toISOString();
  // Absent rather than null (JSON drops undefined): a record's JSON is most of what the store reads and keeps.
  const stored = items.map(
    ({ index, asked, answer }): StoredItem => ({
      i: index ?? undefined,
      s: asked.state.toUpperCase(),
      n: asked.license_number,
      k: canonicalLicenseNumber(asked.license_number),
      a: nameSent(asked) ?? undefined,
      v: answer.verified,
      d: answer.verdict,
      r: answer.reasons,
      m: answer.name_match ?? undefined,
      st: answer.licensee?.status ?? undefined,
      ex: answer.licensee?.expiration_date ?? undefined,
      src: answer.source?.id ?? undefined,
      sd: answer.source?.snapshot_date ?? undefined,
      lv: answer.licensee?.last_verified ?? undefined,
    }),
  );
  return {
    id: callIdOf(uuidv7()),
    account_id: caller.account.id,
    key_id: caller.keyId,
    created_at: now.toISOString(),
    keep_until: keepUntil,
    operation,
    http_status: served.status,
    body_sha256: served.sha256,
    tags: callTags(stored),
    items: stored,
  };
}

const idsOf = (call: CallRow) => call.items.map((_, position) => itemId(call.id, position));

export function createVerificationsService(repo: VerificationsRepo, clock: Clock, writer: RecordWriter = directWriter(repo)) {
  return {
    /**
     * Records what one call answered, kept as long as the plan in force keeps records; resolves
     * with the ids (in item order, time-ordered) once they are committed.
     */
    async record(caller: { account: PlanHolder & { id: string }; keyId: string }, operation: 'verify' | 'batch', items: AnsweredItem[], served: ServedAnswer): Promise<string[]> {
      const call = callOf(caller, operation, items, served, clock.now());
      await writer.append([call]);
      return idsOf(call);
    },

    /**
     * Records a call in the caller's transaction `tx` (a job's chunk: kept or dropped with its
     * results), straight to the store, not through the writer; resolves with the ids in item order.
     */
    async recordIn(tx: SqlTx, caller: { account: PlanHolder & { id: string }; keyId: string | null }, operation: Operation, items: AnsweredItem[], served: ServedAnswer): Promise<string[]> {
      const call = callOf(caller, operation, items, served, clock.now());
      await repo.insertJson(JSON.stringify([call]), tx);
      return idsOf(call);
    },

    /** A page of an account's records, newest first, and the cursor of the next (null at the end). */
    async list(accountId: string, q: ListQuery) {
      await writer.flush();
      const rows = await repo.page(accountId, filtersOf(q), q.cursor ? cursors.decode(q.cursor) : undefined, q.per_page + 1);
      const page = rows.slice(0, q.per_page);
      return { data: page.map(publicRecord), meta: { per_page: q.per_page, next_cursor: rows.length > q.per_page ? cursors.encode(page[page.length - 1]) : null } };
    },

    async get(accountId: string, id: string): Promise<VerificationRecord> {
      await writer.flush();
      const row = await repo.get(accountId, id);
      if (!row) throw new NotFoundError(`no verification ${id} in this account`);
      return publicRecord(row);
    },

    /** Every record matching `q`, newest first, read a page at a time (an export's memory is one page). */
    async *all(accountId: string, q: Omit<ListQuery, 'cursor' | 'per_page'>, pageSize = 1_000): AsyncGenerator<VerificationRecord> {
      const filters = filtersOf(q);
      await writer.flush();
      let after: PagePosition | undefined;
      for (;;) {
        const rows = await repo.page(accountId, filters, after, pageSize);
        for (const row of rows) yield publicRecord(row);
        if (rows.length < pageSize) return;
        after = rows[rows.length - 1];
      }
    },

    /** Drops the records past the time their plan kept them for. */
    async prune() {
      const gone = await repo.prune(clock.now());
      await repo.maintain();
      return gone;
    },
    /** Stores what is still on its way; at a stop, before the store closes. */
    close: () => writer.close(),
  };
}
export type VerificationsService = ReturnType<typeof createVerificationsService>;
