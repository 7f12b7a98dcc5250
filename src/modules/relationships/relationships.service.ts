import { BROKERAGE_RELATIONSHIP_TYPES, type RelationshipType } from '../../domain/vocabulary.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { addDays, nextPeriod, periodStart } from '../../domain/dates.js';
import { TRANSFER_WINDOW_DAYS } from '../../domain/changes.js';
import { bySupervision, displayName, matchesEdge, type AffiliationFilters, type CounterpartRecord, type CredentialRecord, type EdgeFilters, type RosterChangeRecord, type RosterChangeSummary, type SupervisorRecord } from '../../domain/credential.js';
import type { GraphReads } from '../../graph/reads-port.js';
import { licenceNotFound, type LicenseRef, type LicenseesService } from '../licensees/licensees.service.js';

function supervisorItem(s: SupervisorRecord) {
  return {
    license_credential_id: s.id,
    license_number: s.license_number,
    full_name: displayName(s) || null,
    license_class: s.license_type,
    affiliate_role: s.affiliate_role,
    relationship_type: s.relationship_type,
    effective_from: s.effective_from,
    effective_to: s.effective_to,
  };
}

export interface RosterHistoryQuery extends EdgeFilters {
  period: 'month' | 'week';
  from?: string;
  to?: string;
}

const counterpartItem = (c: CounterpartRecord | null) =>
  c && { license_credential_id: c.id, license_number: c.license_number, full_name: c.full_name ?? c.business_name, effective_from: c.effective_from, effective_to: c.effective_to };

function rosterItem(c: RosterChangeRecord) {
  return {
    affiliate_license_credential_id: c.id,
    license_number: c.license_number,
    full_name: c.full_name ?? c.business_name,
    license_class: c.license_type,
    relationship_type: c.relationship_type,
    affiliate_role: c.affiliate_role,
    effective_from: c.effective_from,
    effective_to: c.effective_to,
    transferred_from: counterpartItem(c.came_from),
    transferred_to: counterpartItem(c.went_to),
  };
}
export type RosterItem = ReturnType<typeof rosterItem>;
/** A relationship is one per (supervisor, affiliate, type, start). */
const rosterKey = (c: { id: string; relationship_type: string; effective_from: string }) => `${c.id}\t${c.relationship_type}\t${c.effective_from}`;

export function createRelationshipsService(repo: GraphReads, licensees: LicenseesService, today: () => string) {
  return {
    async affiliations(ref: LicenseRef, f: AffiliationFilters) {
      const found = await repo.affiliations(licensees.idOf(ref), f);
      if (!found) throw licenceNotFound(ref);
      const day = f.as_of ?? today();
      return found.map((r) => ({
        supervisor_license_credential_id: r.id,
        supervisor_license_number: r.license_number,
        supervisor_full_name: r.full_name ?? r.business_name,
        affiliate_role: r.affiliate_role,
        relationship_type: r.relationship_type,
        effective_from: r.effective_from,
        effective_to: r.effective_to,
        status: r.effective_from > day ? 'scheduled' : r.effective_to === null || r.effective_to > day ? 'active' : 'ended',
      }));
    },

    async supervisors(ref: LicenseRef, f: EdgeFilters) {
      const { open } = await licensees.requireSupervised(ref);
      return open.filter((s) => matchesEdge(s, f)).map(supervisorItem);
    },

    /** Legacy: the one current supervisor, preferring the brokerage link, then the newest. */
    async supervisor(ref: LicenseRef) {
      const { open } = await licensees.requireSupervised(ref);
      const pick = open.find((s) => BROKERAGE_RELATIONSHIP_TYPES.includes(s.relationship_type as RelationshipType)) ?? open[0];
      return pick ? supervisorItem(pick) : null;
    },

    async affiliates(ref: LicenseRef, f: EdgeFilters, page: number, perPage: number) {
      const { rows, total } = await repo.affiliates(licensees.idOf(ref), f, (page - 1) * perPage, perPage);
      // None in force: the licence may not be on file (a 404, not an empty page).
      if (total === 0) await licensees.require(ref);
      return {
        data: rows.map((a) => ({
          affiliate_license_credential_id: a.id,
          license_number: a.license_number,
          full_name: a.full_name ?? a.business_name,
          license_class: a.license_type,
          affiliate_role: a.affiliate_role,
          relationship_type: a.relationship_type,
          effective_from: a.effective_from,
        })),
        meta: { total, page, per_page: perPage },
      };
    },

    /**
     * A supervisor's roster per calendar period: who joined and left (and from or to whom they
     * moved, by the feed's transfer window) and how many were in force on each period's last day.
     * The counts are whole; each list and period names its `page` of `perPage` in the lists' order,
     * and only those are read whole.
     */
    async rosterHistory(ref: LicenseRef, q: RosterHistoryQuery, limits: { periods: number; page: number; perPage: number }) {
      const supervisor = await licensees.require(ref);
      const last = periodStart(q.to ?? today(), q.period);
      let first = q.from === undefined ? last : periodStart(q.from, q.period);
      if (q.from === undefined) for (let i = 1; i < 12; i++) first = periodStart(addDays(first, -1), q.period);
      const starts: string[] = [];
      for (let s = first; s <= last; s = nextPeriod(s, q.period)) {
        starts.push(s);
        if (starts.length > limits.periods) {
          throw new ValidationError([{ loc: ['query', 'from'], msg: `at most ${limits.periods} periods of a ${q.period}: from ${first} to ${last} is more`, type: 'value_error' }]);
        }
      }
      const to = addDays(nextPeriod(last, q.period), -1);
      const skip = limits.page === 1 ? 0 : (limits.page - 1) * limits.perPage; // perPage may be Infinity (the CSV)
      const { before, periods } = await repo.rosterPeriods(supervisor.id, starts, to, q, TRANSFER_WINDOW_DAYS, skip, limits.perPage);
      const wanted = [...new Map(periods.flatMap((p) => [...p.joinedPage, ...p.leftPage]).map((c) => [c.ref, c])).values()];
      const records = new Map((await repo.rosterChangeRecords(supervisor.id, first, to, TRANSFER_WINDOW_DAYS, wanted)).map((r) => [rosterKey(r), r]));
      const named = (list: RosterChangeSummary[]) => list.flatMap((c) => {
        const r = records.get(rosterKey(c));
        return r ? [rosterItem(r)] : [];
      });
      let inForce = before;
      const data = starts.map((start, i) => {
        const p = periods[i];
        inForce += p.joined - p.left;
        return {
          period_start: start,
          period_end: addDays(nextPeriod(start, q.period), -1),
          joined: p.joined,
          left: p.left,
          in_force_at_end: inForce,
          transfers_in: p.transfers_in,
          transfers_out: p.transfers_out,
          joined_affiliates: named(p.joinedPage),
          left_affiliates: named(p.leftPage),
        };
      });
      return {
        supervisor: { license_credential_id: supervisor.id, state: supervisor.state, license_number: supervisor.license_number, full_name: displayName(supervisor) || null },
        period: q.period,
        from: first,
        to,
        in_force_before: before,
        data,
        meta: { page: limits.page, per_page: limits.perPage },
      };
    },

    /**
     * Lays out in levels the relationships in force today that the walk up from a credential
     * crosses (GraphReads.walkUp). A supervisor already below a credential on its own path is
     * a cycle and stops that branch; one reached again by another path (a diamond) is listed but
     * not walked twice.
     */
    async hierarchy(credentialId: string, maxDepth: number) {
      // maxDepth levels, and one more to tell whether the bound cut the walk short.
      const walked = await repo.walkUp(credentialId, today(), maxDepth + 1);
      if (!walked) throw new NotFoundError(`no licence credential ${credentialId}`);
      const { start: c, crossed } = walked;
      const above = new Map<string, SupervisorRecord[]>();
      for (const s of crossed) {
        const list = above.get(s.affiliate_id);
        if (list) list.push(s);
        else above.set(s.affiliate_id, [s]);
      }
      // For each credential reached: the credentials on the walk from the start up to it.
      const below = new Map<string, Set<string>>([[c.id, new Set([c.id])]]);
      const levels = [];
      let frontier: Pick<CredentialRecord, 'id'>[] = [c];
      let depth = 0;
      let cycle = false;
      let truncated = false;
      while (frontier.length) {
        const open = frontier.flatMap((f) => above.get(f.id) ?? []).sort(bySupervision);
        if (depth === maxDepth) {
          truncated = open.some((s) => !below.get(s.affiliate_id)!.has(s.id));
          break;
        }
        depth += 1;
        const next = new Map<string, Set<string>>();
        const reached = new Map<string, SupervisorRecord>();
        for (const s of open) {
          const path = below.get(s.affiliate_id)!;
          if (path.has(s.id)) {
            cycle = true;
            continue;
          }
          levels.push({
            depth,
            license_credential_id: s.id,
            state: s.state,
            license_number: s.license_number,
            full_name: displayName(s) || null,
            license_type: s.license_type,
            status: s.status,
            supervises_license_credential_id: s.affiliate_id,
            relationship_type: s.relationship_type,
            affiliate_role: s.affiliate_role,
            effective_from: s.effective_from,
            effective_to: s.effective_to,
          });
          if (below.has(s.id)) continue;
          const merged = next.get(s.id) ?? new Set([s.id]);
          path.forEach((id) => merged.add(id));
          next.set(s.id, merged);
          reached.set(s.id, s);
        }
        next.forEach((path, id) => below.set(id, path));
        frontier = [...reached.values()];
      }
      const depthReached = levels.reduce((m, l) => Math.max(m, l.depth), 0);
      return {
        credential: {
          license_credential_id: c.id,
          state: c.state,
          license_number: c.license_number,
          full_name: c.full_name ?? c.business_name,
          license_type: c.license_type,
          status: c.status,
        },
        levels,
        max_depth: maxDepth,
        depth_reached: depthReached,
        terminated_by: cycle ? ('cycle' as const) : truncated ? ('max_depth' as const) : ('top' as const),
        reached_top: !cycle && !truncated,
        cycle_detected: cycle,
        truncated,
      };
    },
  };
}
export type RelationshipsService = ReturnType<typeof createRelationshipsService>;
