import type { ChangeEvent, PathStep } from '../../domain/changes.js';
import { inForce, type CredentialRecord } from '../../domain/credential.js';
import { addDays } from '../../domain/dates.js';
import { current, lapsed } from '../../domain/expiries.js';
import { SOURCES } from '../../domain/sources.js';
import { BROKERAGE_RELATIONSHIP_TYPES, DESIGNATION_RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import type { GraphReads } from '../../graph/reads-port.js';
import type { ChangesRepo, StoredChange, WatchedAt } from './changes.repo.js';

/** Levels a walk up from a watched licence crosses (real chains are two or three deep). */
const ALERT_HOPS = 5;
/** Credentials read per round of the walk. */
const READ_BATCH = 2_000;
/** Watches (an account, a licence) derived at a time: 20,000 alerts at most for one cause above them. */
const WATCH_PAGE = 20_000;

/** Public events on a supervisor that tell its watched affiliates below. */
const STATUS = ['status_changed', 'left_source'];
/** Public events on a watched licence itself that alerts are derived from. */
const OWN = ['supervision_ended', 'supervision_started', 'left_source', 'status_changed', 'expiration_changed'];

type Run = { id: string; source: string; state: string; snapshot_date: string };
type Log = { error(obj: object, msg: string): void };

/**
 * Derives a committed run's alerts for the accounts that watch licences of its state
 * (docs/changes.md, *Alerts for your watchlist*) and publishes them with the run marked derived:
 * - `supervisor_status_changed`: a supervisor up to ALERT_HOPS levels above a watched licence, by
 *   the relationships in force the day before the snapshot, changed status or left the source;
 * - `supervision_gap_opened`: a watched licence lost a brokerage relationship and, where the source
 *   publishes supervision in full, holds none in force on the snapshot date;
 * - `designated_broker_changed`: a watched licence's designated broker or officer ended or started;
 * - `renewed_after_lapse`: a watched licence lapsed before the snapshot (expired by status, or past
 *   its expiration date) is current after it.
 * A failure is logged and leaves the run underived: the next recovery (a refresh of the source, a
 * start) derives it again.
 */
export function createAlerts(deps: { repo: ChangesRepo; reads: () => Promise<GraphReads>; now: () => Date; log: Log; page?: number }) {
  const { repo, page = WATCH_PAGE } = deps;
  return async function derive(runId: string): Promise<void> {
    // A page's alerts are published while the next page is derived: the side store writes as the
    // graph is read, and what a derivation holds is bounded by two pages, not by the watchlists.
    let publishing: Promise<number | null> = Promise.resolve(0);
    try {
      const run = await repo.underived(runId);
      if (!run) return;
      const reads = await deps.reads();
      const detectedAt = deps.now().toISOString();
      for (let after: WatchedAt | null = null; ; ) {
        const watched = await repo.watchedIn(run.state, after, page);
        if (!watched.length) break;
        after = watched[watched.length - 1];
        const alerts = await alertsOf(repo, run, watched, reads, detectedAt);
        if (!alerts.length) continue;
        // Derived meanwhile by another process: nothing is left to write.
        if ((await publishing) === null) return;
        publishing = repo.publishDerived(run, alerts, false);
        publishing.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
      }
      if ((await publishing) === null) return;
      await repo.publishDerived(run, [], true);
    } catch (err) {
      await publishing.catch(() => undefined);
      deps.log.error({ err, run_id: runId }, 'the alerts of a run were not derived: the next recovery derives them');
    }
  };
}

/** The alerts of a page of watches: what it holds is bounded by the page and what above it the run changed, not by the run. */
async function alertsOf(repo: ChangesRepo, run: Run, watched: WatchedAt[], reads: GraphReads, detectedAt: string): Promise<ChangeEvent[]> {
  const watchers = new Map<string, string[]>();
  for (const w of watched) watchers.set(w.credential_id, [...(watchers.get(w.credential_id) ?? []), w.account_id]);
  const records = new Map<string, CredentialRecord>();
  const read = async (ids: string[]) => {
    const missing = [...new Set(ids)].filter((id) => !records.has(id));
    for (let i = 0; i < missing.length; i += READ_BATCH) for (const r of await reads.byIds(missing.slice(i, i + READ_BATCH))) records.set(r.id, r);
  };
  const out: ChangeEvent[] = [];
  const emit = (watchedId: string, e: Omit<ChangeEvent, 'state' | 'license_credential_id' | 'license_number' | 'snapshot_date' | 'detected_at' | 'source' | 'account_id'>) => {
    for (const account of watchers.get(watchedId) ?? []) {
      out.push({ ...e, state: run.state, license_credential_id: watchedId, license_number: records.get(watchedId)?.license_number ?? null, account_id: account, snapshot_date: run.snapshot_date, detected_at: detectedAt, source: run.source });
    }
  };
  const own = await repo.runEvents(run.id, OWN, [...watchers.keys()]);
  const byType = (types: readonly string[]) => own.filter((e) => types.includes(e.type));
  const supervisionOn = (types: readonly string[]) =>
    own.filter((e) => (e.type === 'supervision_ended' || e.type === 'supervision_started') && e.relationship && types.includes(e.relationship.relationship_type) && watchers.has(e.relationship.affiliate_license_credential_id));

  // Supervisors above: walked up by the relationships in force the day before the snapshot, so that
  // a supervisor whose relationships this run ended (it left the source) is still found above.
  const dayBefore = addDays(run.snapshot_date, -1);
  const above = (id: string) => records.get(id)?.supervision.filter((r) => inForce(r, dayBefore)) ?? [];
  let frontier = [...watchers.keys()];
  const seen = new Set(frontier);
  const supervisors = new Set<string>();
  // The first round reads every watched licence: the gaps, designations and renewals below read them from `records`.
  for (let level = 0; level <= ALERT_HOPS && frontier.length; level++) {
    await read(frontier);
    const ups = level < ALERT_HOPS ? frontier.flatMap((id) => above(id).map((r) => r.supervisor_id)) : [];
    for (const id of ups) supervisors.add(id);
    frontier = ups.filter((id) => !seen.has(id) && seen.add(id));
  }
  const causes = new Map<string, StoredChange[]>();
  for (const e of await repo.runEvents(run.id, STATUS, [...supervisors])) causes.set(e.license_credential_id!, [...(causes.get(e.license_credential_id!) ?? []), e]);
  if (causes.size) {
    for (const watchedId of watchers.keys()) {
      // Breadth first: each cause is told once per watched licence, by its shortest path.
      const told = new Set<number>();
      let paths: { at: string; path: PathStep[] }[] = [{ at: watchedId, path: [] }];
      for (let level = 0; level < ALERT_HOPS && paths.length; level++) {
        const next: typeof paths = [];
        for (const { at, path } of paths) {
          for (const r of above(at)) {
            const s = records.get(r.supervisor_id);
            if (!s || r.supervisor_id === watchedId || path.some((p) => p.supervisor_license_credential_id === r.supervisor_id)) continue;
            const step: PathStep = { affiliate_license_credential_id: at, supervisor_license_credential_id: s.id, supervisor_license_number: s.license_number, supervisor_full_name: s.full_name, relationship_type: r.relationship_type, effective_from: r.effective_from };
            const reached = [...path, step];
            for (const cause of causes.get(s.id) ?? []) {
              if (told.has(cause.seq)) continue;
              told.add(cause.seq);
              emit(watchedId, { type: 'supervisor_status_changed', old: cause.old, new: cause.new, relationship: null, alert: { key: `supervisor_status_changed:${cause.seq}:${watchedId}`, path: reached, cause_seqs: [cause.seq] } });
            }
            next.push({ at: s.id, path: reached });
          }
        }
        paths = next;
      }
    }
  }

  // Gaps: read after the run (the graph as it now stands), where the source publishes supervision in full.
  if (SOURCES[run.source]?.relationship_coverage === 'verified_graph') {
    const left = new Set(byType(['left_source']).map((e) => e.license_credential_id));
    const ended = new Map<string, StoredChange[]>();
    for (const e of supervisionOn(BROKERAGE_RELATIONSHIP_TYPES)) {
      const id = e.relationship!.affiliate_license_credential_id;
      if (e.type === 'supervision_ended' && !left.has(id)) ended.set(id, [...(ended.get(id) ?? []), e]);
    }
    for (const [id, ends] of ended) {
      const record = records.get(id);
      if (!record || record.supervision.some((r) => BROKERAGE_RELATIONSHIP_TYPES.includes(r.relationship_type as never) && inForce(r, run.snapshot_date))) continue;
      const last = ends[ends.length - 1];
      emit(id, { type: 'supervision_gap_opened', old: null, new: null, relationship: last.relationship, alert: { key: `supervision_gap_opened:${run.id}:${id}`, path: [], cause_seqs: ends.map((e) => e.seq) } });
    }
  }

  // Designated brokers: what this run ended and started on a watched licence.
  const designations = new Map<string, StoredChange[]>();
  for (const e of supervisionOn(DESIGNATION_RELATIONSHIP_TYPES)) {
    const id = e.relationship!.affiliate_license_credential_id;
    designations.set(id, [...(designations.get(id) ?? []), e]);
  }
  for (const [id, changes] of designations) {
    const side = (type: string) => changes.filter((e) => e.type === type).map((e) => ({ license_credential_id: e.relationship!.supervisor_license_credential_id, license_number: e.relationship!.supervisor_license_number, relationship_type: e.relationship!.relationship_type }));
    emit(id, {
      type: 'designated_broker_changed',
      old: { designated_brokers: side('supervision_ended') },
      new: { designated_brokers: side('supervision_started') },
      relationship: null,
      alert: { key: `designated_broker_changed:${run.id}:${id}`, path: [], cause_seqs: changes.map((e) => e.seq) },
    });
  }
  // Renewals: the values before the run are the changed events' old ones, else the record's own.
  const renewals = new Map<string, { status?: StoredChange; expiration?: StoredChange }>();
  for (const e of byType(['status_changed', 'expiration_changed'])) {
    const r = renewals.get(e.license_credential_id!) ?? {};
    r[e.type === 'status_changed' ? 'status' : 'expiration'] = e;
    renewals.set(e.license_credential_id!, r);
  }
  for (const [id, { status, expiration }] of renewals) {
    const after = records.get(id);
    if (!after) continue;
    const was = {
      status: status ? (status.old?.status as string | null) : after.status,
      status_normalized: status ? (status.old?.status_normalized as string | null) : after.status_normalized,
      expiration_date: expiration ? (expiration.old?.expiration_date as string | null) : after.expiration_date,
    };
    if (!lapsed(was, run.snapshot_date) || !current(after, run.snapshot_date)) continue;
    emit(id, {
      type: 'renewed_after_lapse',
      old: was,
      new: { status: after.status, status_normalized: after.status_normalized, expiration_date: after.expiration_date },
      relationship: null,
      alert: { key: `renewed_after_lapse:${run.id}:${id}`, path: [], cause_seqs: [status, expiration].flatMap((e) => (e ? [e.seq] : [])) },
    });
  }
  return out;
}
