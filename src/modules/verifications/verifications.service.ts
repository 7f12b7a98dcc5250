import { timeOrderedUuid } from './time-ordered-id.js';
import type { Clock } from '../../domain/clock.js';
import { effectivePlan, type PlanHolder } from '../../domain/plans.js';
import type { Verdict } from '../../domain/verdict.js';
import { MATCHER_VERSION } from '../../domain/name-match.js';
import { canonicalLicenseNumber } from '../../domain/identity.js';
import { NotFoundError, UnavailableError } from '../../errors.js';
import { RECEIPT_TYPES, type Signer } from '../receipts/signer.js';
import { cursorCodec, isCursorMoment } from '../../http/cursor.js';
import type { ServedAnswer } from '../../http/served-answer.js';
import type { SqlTx } from '../../store/sql-store.js';
import { nameSent, type AnsweredItem } from '../licensees/verification.js';
import { groupCommit } from './group-commit.js';
import {
  callIdOf,
  callTags,
  itemId,
  type CallRow,
  type Operation,
  type PagePosition,
  type RecordRow,
  type ReviewDecision,
  type Reviewer,
  type ReceiptRow,
  type ReviewRow,
  type StoredItem,
  type VerificationFilters,
  type VerificationsRepo,
} from './verifications.repo.js';

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
  reviewed?: boolean;
  cursor?: string;
  per_page: number;
  /** newest (the default) or oldest first. */
  order?: 'newest' | 'oldest';
}

const filtersOf = (q: Omit<ListQuery, 'cursor' | 'per_page' | 'order'>): VerificationFilters => ({
  from: q.from,
  to: q.to,
  state: q.state,
  license_key: q.license_number === undefined ? undefined : canonicalLicenseNumber(q.license_number),
  verdicts: q.verdicts,
  reviewed: q.reviewed,
});

/** A review as its readers see it (its receipt included). */
const publicReview = (recordId: string, v: ReviewRow) => ({
  id: v.id,
  verification_id: recordId,
  decision: v.decision,
  reason: v.reason,
  reviewer: v.reviewer,
  created_at: v.created_at,
  receipt: { kid: v.kid, jws: v.jws },
});
export type VerificationReview = ReturnType<typeof publicReview>;

/** The public record: an item with its call's fields, and its reviews. */
const publicRecord = ({ call_id, position, key_id, created_at, operation, http_status, body_sha256, item: it, reviews }: RecordRow) => ({
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
  matcher_version: it.mv ?? null,
  http_status,
  body_sha256,
  reviews: reviews.map((v) => publicReview(itemId(call_id, position), v)),
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

/**
 * Records written to the store, concurrent calls' in one statement; through `writes` when given (a
 * connection on a thread of its own, closed with the writer).
 */
export const directWriter = (repo: VerificationsRepo, writes?: SqlTx & { close(): Promise<void> }): RecordWriter => ({
  append: groupCommit<CallRow>((calls) => repo.insertJson(JSON.stringify(calls), writes)),
  flush: async () => {},
  close: async () => writes?.close(),
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
      mv: answer.name_match ? MATCHER_VERSION : undefined,
    }),
  );
  return {
    id: callIdOf(timeOrderedUuid()),
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

/**
 * What a record's receipt attests (docs/verdicts.md): what was asked and answered, on which source
 * and snapshot, by which matcher, for which account, and the hash of the body served.
 */
function receiptClaims(accountId: string, r: VerificationRecord) {
  return {
    sub: accountId,
    jti: r.id,
    verification: {
      id: r.id,
      created_at: r.created_at,
      key_id: r.key_id,
      operation: r.operation,
      index: r.index,
      asked: { state: r.state, license_number: r.license_number, name: r.name_sent },
      answered: {
        verified: r.verified,
        verdict: r.verdict,
        reasons: r.reasons,
        name_match: r.name_match,
        license_status: r.license_status,
        expiration_date: r.expiration_date,
        last_verified: r.last_verified,
      },
      source: { id: r.source_id, snapshot_date: r.snapshot_date },
      matcher_version: r.matcher_version,
      http_status: r.http_status,
      body_sha256: r.body_sha256,
    },
  };
}

export interface ReviewInput {
  decision: ReviewDecision;
  reason: string;
}

export function createVerificationsService(repo: VerificationsRepo, clock: Clock, writer: RecordWriter = directWriter(repo), signer?: Signer) {
  const signing = () => {
    if (!signer) throw new UnavailableError('receipts are not signed in this process');
    return signer;
  };
  const find = async (accountId: string, id: string) => {
    await writer.flush();
    const row = await repo.get(accountId, id);
    if (!row) throw new NotFoundError(`no verification ${id} in this account`);
    return row;
  };
  /**
   * A record's receipt: signed the first time it is asked for and kept with the record (signed
   * again, once, if its key has since been marked compromised).
   */
  async function receipt(accountId: string, id: string) {
    await writer.flush();
    const [row, found] = await repo.getWithReceipt(accountId, id);
    if (!row) throw new NotFoundError(`no verification ${id} in this account`);
    const record = publicRecord(row);
    let kept: ReceiptRow | undefined = found && !found.compromised ? found : undefined;
    if (!kept) {
      const signed = await signing().sign(receiptClaims(accountId, record), RECEIPT_TYPES.verification);
      kept = await repo.keepReceipt(row.call_id, row.position, signed, found?.kid);
    }
    return { verification_id: record.id, kid: kept.kid, alg: 'EdDSA' as const, typ: RECEIPT_TYPES.verification, signed_at: kept.signed_at, jws: kept.jws };
  }
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
      const rows = await repo.page(accountId, filtersOf(q), q.cursor ? cursors.decode(q.cursor) : undefined, q.per_page + 1, q.order);
      const page = rows.slice(0, q.per_page);
      return { data: page.map(publicRecord), meta: { per_page: q.per_page, next_cursor: rows.length > q.per_page ? cursors.encode(page[page.length - 1]) : null } };
    },

    async get(accountId: string, id: string): Promise<VerificationRecord> {
      return publicRecord(await find(accountId, id));
    },

    receipt,

    /** What a certificate prints: the record and its receipt (signed now if never asked for). */
    async certificate(accountId: string, id: string) {
      return { receipt: await receipt(accountId, id), record: publicRecord(await find(accountId, id)) };
    },

    /** The base URL receipts name as their issuer (`iss`). */
    issuer: () => signing().issuer,

    /** Records a person's decision about a record, signed; the record's own answer never changes. */
    async review(accountId: string, id: string, input: ReviewInput, reviewer: Reviewer, reviewId = timeOrderedUuid()): Promise<VerificationReview> {
      const row = await find(accountId, id);
      const recordId = itemId(row.call_id, row.position);
      const createdAt = clock.now().toISOString();
      const signed = await signing().sign(
        {
          sub: accountId,
          jti: reviewId,
          review: { id: reviewId, verification_id: recordId, verification_body_sha256: row.body_sha256, decision: input.decision, reason: input.reason, reviewer, created_at: createdAt },
        },
        RECEIPT_TYPES.review,
      );
      const review: ReviewRow = { id: reviewId, decision: input.decision, reason: input.reason, reviewer, created_at: createdAt, kid: signed.kid, jws: signed.jws };
      await repo.insertReview(row.call_id, row.position, accountId, review);
      return publicReview(recordId, review);
    },

    async reviews(accountId: string, id: string): Promise<VerificationReview[]> {
      return publicRecord(await find(accountId, id)).reviews;
    },

    async getReview(accountId: string, id: string, reviewId: string): Promise<VerificationReview> {
      const review = publicRecord(await find(accountId, id)).reviews.find((v) => v.id === reviewId);
      if (!review) throw new NotFoundError(`no review ${reviewId} of verification ${id} in this account`);
      return review;
    },

    /** Every record matching `q`, newest first, read a page at a time (an export's memory is one page). */
    async *all(accountId: string, q: Omit<ListQuery, 'cursor' | 'per_page' | 'order'>, pageSize = 1_000): AsyncGenerator<VerificationRecord> {
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
export type VerificationReceiptView = Awaited<ReturnType<VerificationsService['receipt']>>;
