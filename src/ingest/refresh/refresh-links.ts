import { ConflictError } from '../../errors.js';
import type { Row } from '../../graph/graph-port.js';
import * as changeEvents from '../change-events.js';
import type { Read } from './refresh-read.js';
import { reject, stageEvents, type Run } from './refresh-run.js';
import { findTransfers, type TransfersInput } from './transfers.js';
import type { BulkMove } from '../../domain/changes.js';

// A refresh's supervision links: what a full snapshot retires, the links that cannot hold, and the
// diff of the links asked for against those on file (refresh.ts runs them after the credentials).

/**
 * A full snapshot that would retire more than this share of the source's active licences (and
 * more than RETIRE_FLOOR of them: a tiny source's one leaver is not a truncated file) stops before
 * anything lands, unless confirmed: a truncated or wrong file looks like that.
 */
export const MAX_RETIRE_SHARE = 0.2;
const RETIRE_FLOOR = 10;

const DESIGNATIONS = new Set(['designated_broker', 'designated_officer']);
const LEFT_STATUS = 'Not in source file';

/** Retires what a full snapshot no longer lists, then writes the link changes (with their events); how many links it wrote. */
export async function writeLinks(run: Run, read: Read, confirmRetire: boolean, started: () => void): Promise<void> {
  const { repo, t } = run;
  started();
  if (run.full) await markLeft(run, read, confirmRetire);
  await dropLinksThatCannotHold(run, read);
  const links = await diffLinks(run, read);
  await repo.writes.reopenLinks(t, links.toReopen);
  await repo.writes.createLinks(t, links.toOpen);
  await repo.writes.closeLinks(t, links.toClose);
  await repo.writes.deleteLinks(t, links.toDelete);
  if (run.events && !run.firstLoad) await linkEvents(run, links);
}

/**
 * The supervision events, then the transfers among them, then the bulk moves. An event's place in
 * the run is known before it is staged (staged + held), so a transfer and a moved affiliate's
 * events name theirs; the commit turns places into feed numbers.
 */
async function linkEvents(run: Run, links: Awaited<ReturnType<typeof diffLinks>>) {
  const events = run.events!;
  const started = [...links.toOpen, ...links.toReopen];
  const ended = [...links.toClose, ...links.toDelete];
  const { single, bulk } = findTransfers({ started, ended, ...links.context });
  const base = run.log.staged + events.length;
  const firstBulk = base + started.length + ended.length + single.length;
  const moves: BulkMove[] = bulk.map((b) => ({
    from_supervisor_license_credential_id: b.from,
    from_supervisor_license_number: null,
    to_supervisor_license_credential_id: b.to,
    to_supervisor_license_number: null,
    relationship_type: b.relationship_type,
    effective_from: b.effective_from,
    moved: b.transfers.length,
    roster_before: b.roster_before,
  }));
  const movedStart = new Map<number, BulkMove>();
  const movedEnd = new Map<number, BulkMove>();
  bulk.forEach((b, k) => {
    const move = { ...moves[k], event_n: firstBulk + k };
    for (const t of b.transfers) {
      movedStart.set(t.started, move);
      movedEnd.set(t.ended!, move);
    }
  });
  for (const [i, link] of started.entries()) {
    events.push(changeEvents.supervision(run.ctx, 'supervision_started', link, movedStart.get(i) ?? null));
    await stageEvents(run);
  }
  for (const [i, link] of ended.entries()) {
    events.push(changeEvents.supervision(run.ctx, 'supervision_ended', link, movedEnd.get(i) ?? null));
    await stageEvents(run);
  }
  for (const t of single) {
    const endedAt = t.ended === null ? null : base + started.length + t.ended;
    events.push(changeEvents.transferred(run.ctx, t.from, t.to, t.gap_days, endedAt, base + t.started));
    await stageEvents(run);
  }
  for (const move of moves) {
    events.push(changeEvents.rosterMoved(run.ctx, move));
    await stageEvents(run);
  }
}

/** Credentials of this source a full snapshot no longer lists turn inactive. */
async function markLeft(run: Run, { onFile }: Read, confirmed: boolean) {
  const { repo, t, source, snapshot, state } = run;
  const gone: string[] = [];
  let active = 0;
  for (const before of onFile.values()) {
    if (before.source !== source.id) continue;
    if (!before.left_source_on) active += 1;
    if (!before.listed && !before.left_source_on) gone.push(before.id);
  }
  const retiring = gone.length;
  if (!confirmed && retiring > RETIRE_FLOOR && retiring > MAX_RETIRE_SHARE * active) {
    const n = (x: number) => x.toLocaleString('en-US');
    throw new ConflictError(
      `the snapshot of ${snapshot} would retire ${n(retiring)} of ${state}'s ${n(active)} active ${source.id} licences ` +
        `(${((100 * retiring) / active).toFixed(1)}%; a refresh retires at most ${100 * MAX_RETIRE_SHARE}% unconfirmed): ` +
        `is the file truncated, or another source's? Nothing was written. If the source really dropped them, run it again confirmed (--confirm-retire).`,
    );
  }
  // In parts, with their events: their documents are held a part at a time.
  for (let i = 0; i < gone.length; i += run.log.part) {
    const ids = gone.slice(i, i + run.log.part);
    const docs = await repo.writes.records(t, ids);
    const left = ids.map((id) => {
      const doc = docs.get(id)!;
      const note = `Left the ${source.id} source file: not in the snapshot of ${snapshot}; last seen in the snapshot of ${doc.snapshot_date}`;
      const notes = [...(doc.data_source_notes ?? []), note];
      run.events?.push(changeEvents.leftSource(run.ctx, id, doc, LEFT_STATUS));
      return { ...doc, status: LEFT_STATUS, status_normalized: 'inactive', data_source_notes: notes, left_source_on: snapshot };
    });
    await repo.writes.markLeft(t, left);
    await stageEvents(run);
  }
  run.counts.left = gone.length;
}

/** A credential of this source a full snapshot no longer lists (inactive now, or already). */
const leftTheSource = (run: Run, read: Read, id: string) => {
  const before = read.onFile.get(id);
  return run.full && before !== undefined && before.source === run.source.id && !before.listed;
};

/** Drops (and reports) the links asked for that cannot hold: the reverse of a designation, a supervisor not on file. */
async function dropLinksThatCannotHold(run: Run, read: Read) {
  const { desired } = read;
  // A licence and its designated broker naming each other would be a 2-cycle; the designation is
  // kept so the chain reads upward (company -> designated broker).
  for (const link of desired) {
    const reverse = desired.get(link.affiliate_id, link.supervisor_id, 'designated_broker') ?? desired.get(link.affiliate_id, link.supervisor_id, 'designated_officer');
    if (reverse && !DESIGNATIONS.has(link.relationship_type)) {
      desired.delete(link);
      reject(run, { file: link.file, line: link.line, reason: 'reverse of a designation', detail: `${link.supervisor_license_number} is this licence's designated broker/officer; kept as the designation only`, link: true });
    }
  }
  const outside = [...desired.supervisors()].filter((id) => !read.seen(id));
  const known = await run.repo.known(run.t, outside);
  for (const link of desired) {
    const id = link.supervisor_id;
    const supervisorGone = !read.seen(id) && (!known.has(id) || (known.get(id) && !read.listed(id)) || leftTheSource(run, read, id));
    if (supervisorGone) {
      desired.delete(link);
      reject(run, { file: link.file, line: link.line, reason: 'supervisor not on file', detail: `related licence ${run.state} ${link.supervisor_license_number} is not on file`, link: true });
    }
  }
}

/**
 * The links asked for against the source's links on file: new ones to open (or, ended with the
 * same start, to reopen), and open ones the snapshot no longer holds to close (or to delete,
 * when they would end before they began). The links on file are compared as they come, not held.
 */
async function diffLinks(run: Run, read: Read) {
  const { source, snapshot, full, counts } = run;
  const { desired } = read;
  const toOpen: Row[] = [];
  const toReopen: Row[] = [];
  const toClose: Row[] = [];
  const toDelete: Row[] = [];
  const close = (current: Row, on: string) => {
    const target = { ...current, effective_to: on };
    if ((current.effective_from as string) >= on) toDelete.push(target);
    else toClose.push(target);
    counts.closed += 1;
  };
  // Open links on file that no link asked for matches: they end, on a date the new links give.
  const unmatched: Row[] = [];
  // For transfers: each supervisor's open links before the run, and the latest ended link of an
  // affiliate and type the run asks a link for (held for those affiliates only).
  const roster = new Map<string, number>();
  const endedBefore = new Map<string, Row>();
  for await (const r of run.repo.writes.links(run.t, run.state, source.id)) {
    const link = desired.get(r.supervisor_id as string, r.affiliate_id as string, r.relationship_type as string);
    if (r.effective_to === null) {
      const k = `${r.supervisor_id as string}|${r.relationship_type as string}`;
      roster.set(k, (roster.get(k) ?? 0) + 1);
    } else if (desired.asks(r.affiliate_id as string, r.relationship_type as string)) {
      const k = `${r.affiliate_id as string}|${r.relationship_type as string}`;
      const held = endedBefore.get(k);
      if (!held || (held.effective_to as string) < (r.effective_to as string)) endedBefore.set(k, r);
    }
    if (r.effective_to !== null) {
      // An ended link back with the start it had is reopened rather than repeated.
      if (link && link.found === null && r.effective_from === (link.effective_from ?? snapshot)) link.found = 'ended';
    } else if (!link) unmatched.push(r);
    else if (link.affiliate_role === r.affiliate_role) link.found = 'kept';
    else {
      // A changed role is a new relationship: the old one keeps its role and ends now.
      close(r, snapshot);
      link.found = 'role changed';
    }
  }
  // Where the source dates a new link of an affiliate, the link it replaces ends that day.
  const startedAt = new Map<string, string>(); // affiliate|relationship_type -> new link's start
  for (const link of desired) {
    if (link.found === 'kept') continue;
    counts.opened += 1;
    const row = {
      supervisor_id: link.supervisor_id,
      affiliate_id: link.affiliate_id,
      affiliate_role: link.affiliate_role,
      relationship_type: link.relationship_type,
      effective_from: link.found === 'role changed' ? snapshot : (link.effective_from ?? snapshot),
      source: source.id,
    };
    if (link.effective_from) startedAt.set(`${link.affiliate_id}|${link.relationship_type}`, link.effective_from);
    (link.found === 'ended' ? toReopen : toOpen).push(row);
  }
  for (const current of unmatched) {
    const affiliate = current.affiliate_id as string;
    // Only a full snapshot, or a partial one that holds the affiliate, says a link has gone;
    // a row the run rejected says nothing about its links.
    if (!read.seen(affiliate) && (!full || read.listed(affiliate))) continue;
    const replacedOn = startedAt.get(`${affiliate}|${current.relationship_type}`);
    const on = replacedOn && replacedOn > (current.effective_from as string) && replacedOn < snapshot ? replacedOn : snapshot;
    close(current, on);
  }
  const context: Omit<TransfersInput, 'started' | 'ended'> = {
    endedBefore,
    keptOpen: (affiliate, type) => desired.ofAffiliate(affiliate).some((l) => l.relationship_type === type && l.found === 'kept'),
    rosterBefore: (supervisor, type) => roster.get(`${supervisor}|${type}`) ?? 0,
  };
  return { toOpen, toReopen, toClose, toDelete, context };
}
