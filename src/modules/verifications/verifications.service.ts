import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../../domain/clock.js';
import type { NameMatch } from '../../domain/name-match.js';
import { effectivePlan, type PlanHolder } from '../../domain/plans.js';
import type { Reason, Verdict } from '../../domain/verdict.js';
import { canonicalLicenseNumber } from '../../domain/identity.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { groupCommit } from './group-commit.js';
import type { PagePosition, VerificationFilters, VerificationRow, VerificationsRepo } from './verifications.repo.js';

/** One licence an answer covered: what was asked and what was answered. */
export interface AnsweredItem {
  /** Position in a batch; null for a single verify. */
  index: number | null;
  asked: { state: string; license_number: string; name?: string; first_name?: string; last_name?: string };
  answer: {
    verified: boolean;
    verdict: Verdict;
    reasons: Reason[];
    name_match: NameMatch | null;
    licensee: { status?: string | null; expiration_date?: string | null; last_verified?: string | null } | null;
    source: { id: string | null; snapshot_date: string | null } | null;
  };
}

/** The answer as served: its HTTP status (200, or 304 for a cached copy) and the SHA-256 of its body. */
export interface Served {
  status: number;
  sha256: string;
}

const cursorOf = (r: PagePosition) => Buffer.from(`${r.created_at}|${r.id}`).toString('base64url');
// Exactly what cursorOf writes: anything else is refused here, never sent to the store.
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
function positionOf(cursor: string): PagePosition {
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  const [, createdAt, id] = m ?? [];
  if (!m || Number.isNaN(Date.parse(createdAt))) {
    throw new ValidationError([{ loc: ['query', 'cursor'], msg: 'is not a cursor this service gave', type: 'value_error' }]);
  }
  return { created_at: createdAt, id };
}

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

/** The public record: the stored row without the account and its filter and retention columns. */
const publicRecord = ({ account_id: _a, license_key: _k, keep_until: _u, item_index, ...r }: VerificationRow) => ({ ...r, index: item_index });
export type VerificationRecord = ReturnType<typeof publicRecord>;

export function createVerificationsService(repo: VerificationsRepo, clock: Clock) {
  const commit = groupCommit<VerificationRow>((rows) => repo.insert(rows));
  return {
    /**
     * Records what one call answered, kept as long as the plan in force keeps records; resolves
     * with the ids (in item order, time-ordered) once they are committed.
     */
    async record(caller: { account: PlanHolder & { id: string }; keyId: string }, operation: 'verify' | 'batch', items: AnsweredItem[], served: Served): Promise<string[]> {
      const now = clock.now();
      const createdAt = now.toISOString();
      const keepUntil = new Date(now.getTime() + effectivePlan(caller.account, now).verificationRetentionDays * 86_400_000).toISOString();
      const rows = items.map(({ index, asked, answer }): VerificationRow => {
        const { state, license_number, ...name } = asked;
        return {
          id: uuidv7(),
          account_id: caller.account.id,
          key_id: caller.keyId,
          created_at: createdAt,
          keep_until: keepUntil,
          operation,
          item_index: index,
          state: state.toUpperCase(),
          license_number,
          license_key: canonicalLicenseNumber(license_number),
          name_sent: Object.values(name).some(Boolean) ? name : null,
          verified: answer.verified,
          verdict: answer.verdict,
          reasons: answer.reasons,
          name_match: answer.name_match,
          licence_status: answer.licensee?.status ?? null,
          expiration_date: answer.licensee?.expiration_date ?? null,
          source_id: answer.source?.id ?? null,
          snapshot_date: answer.source?.snapshot_date ?? null,
          last_verified: answer.licensee?.last_verified ?? null,
          http_status: served.status,
          body_sha256: served.sha256,
        };
      });
      await commit(rows);
      return rows.map((r) => r.id);
    },

    /** A page of an account's records, newest first, and the cursor of the next (null at the end). */
    async list(accountId: string, q: ListQuery) {
      const rows = await repo.page(accountId, filtersOf(q), q.cursor ? positionOf(q.cursor) : undefined, q.per_page + 1);
      const page = rows.slice(0, q.per_page);
      return { data: page.map(publicRecord), meta: { per_page: q.per_page, next_cursor: rows.length > q.per_page ? cursorOf(page[page.length - 1]) : null } };
    },

    async get(accountId: string, id: string): Promise<VerificationRecord> {
      const row = await repo.get(accountId, id);
      if (!row) throw new NotFoundError(`no verification ${id} in this account`);
      return publicRecord(row);
    },

    /** Every record matching `q`, newest first, read a page at a time (an export's memory is one page). */
    async *all(accountId: string, q: Omit<ListQuery, 'cursor' | 'per_page'>, pageSize = 1_000): AsyncGenerator<VerificationRecord> {
      const filters = filtersOf(q);
      let after: PagePosition | undefined;
      for (;;) {
        const rows = await repo.page(accountId, filters, after, pageSize);
        for (const row of rows) yield publicRecord(row);
        if (rows.length < pageSize) return;
        after = rows[rows.length - 1];
      }
    },

    /** Drops the records past the time their plan kept them for. */
    prune: () => repo.prune(clock.now()),
  };
}
export type VerificationsService = ReturnType<typeof createVerificationsService>;
