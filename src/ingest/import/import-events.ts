import { randomUUID } from 'node:crypto';
import type { ChangeEvent } from '../../domain/changes.js';
import type { StoredCredential } from '../../graph/writes-port.js';
import type { Row } from '../../graph/graph-port.js';
import * as changeEvents from '../change-events.js';
import type { ImportRepo, UnitEvents } from '../import-repo.js';

/** The change log's source name for canonical imports' runs: their landed mark is an ImportRun node. */
export const IMPORT_RUNS = 'canonical-import';

/** A relationship row as the upsert takes it, with what its events name: the affiliate's state and both numbers. */
export interface RelationshipChange extends Row {
  affiliate_state: string;
  supervisor_license_number: string;
  affiliate_license_number: string;
}

const relationshipKey = (r: Row) => `${r.supervisor_id}|${r.affiliate_id}|${r.relationship_type}|${r.effective_from}`;

/**
 * The change events of one canonical import (docs/changes.md): one event per licence and
 * relationship change in a state it does not load first, one `state_loaded` for each state it
 * does. Each unit's events are staged inside the unit, which marks itself landed; they are
 * committed once it has, and discarded if it has not (here, or by the next import or start).
 */
export function importEvents(repo: ImportRepo, now: Date) {
  const log = repo.changes;
  const detected_at = now.toISOString();
  const today = detected_at.slice(0, 10);
  const firstLoads = new Set<string>();
  const checked = new Set<string>();
  const sources = new Map<string, string>();
  const ctx = (state: string, source: string, snapshot?: unknown) => ({ state, snapshot_date: typeof snapshot === 'string' ? snapshot : today, detected_at, source });

  async function stage(id: string, events: ChangeEvent[]): Promise<boolean> {
    if (!events.length) return false;
    await log!.stage({ id, source: IMPORT_RUNS, state: events[0].state, snapshot_date: events[0].snapshot_date }, events);
    return true;
  }

  /** Runs `write` with the events `build` makes for its unit, and commits them once it has landed. */
  async function recorded<R, O>(build: (id: string) => UnitEvents<R>, write: (events?: UnitEvents<R>) => Promise<O>): Promise<O> {
    if (!log) return write();
    const made = build(randomUUID());
    let staged = false;
    const events: UnitEvents<R> = { id: made.id, before: made.before, stage: async (t, r) => (staged = await made.stage(t, r)) };
    try {
      const out = await write(events);
      if (staged) {
        await log.commit(made.id);
        await repo.forgetRun(made.id);
      }
      return out;
    } catch (err) {
      if (staged) await log.recover(IMPORT_RUNS, repo.landedRun).catch(() => undefined);
      throw err;
    }
  }

  /** The first loads' summaries, from what the graph holds inside the unit that ends the import (`states`, else the unit's result). */
  const loadedEvents = (states?: string[]) => (id: string): UnitEvents<string[] | void> => ({
    id,
    async stage(t, result) {
      const list = states ?? result ?? [];
      if (!list.length) return false;
      const counts = await repo.loadedCounts(t, list);
      return stage(
        id,
        counts.map((c) => changeEvents.stateLoaded(ctx(c.state as string, sources.get(c.state as string) ?? (c.source as string)), { credentials: Number(c.credentials), relationships: Number(c.relationships) })),
      );
    },
  });

  return {
    /** Settles the runs an earlier import left staged (before this one writes). */
    recover: async () => log?.recover(IMPORT_RUNS, repo.landedRun),
    /** Before a state's first rows are written (and its demo records removed): whether this import is its first load. */
    async seeState(state: string, source: string) {
      if (!log || checked.has(state)) return;
      checked.add(state);
      sources.set(state, source);
      if (!(await repo.hasRealCredentials(state))) firstLoads.add(state);
    },
    /** A batch of credential records: added, or what changed against their documents before the write. */
    credentials: (records: Row[], write: (events?: UnitEvents<void>) => Promise<void>) =>
      recorded((id) => {
        const subject = records.filter((r) => !firstLoads.has(r.state as string));
        let before = new Map<string, StoredCredential>();
        return {
          id,
          async before(t) {
            if (subject.length) before = await repo.records(t, subject.map((r) => r.id as string));
          },
          stage: () => {
            const events = subject.flatMap((r) => {
              const c = ctx(r.state as string, r.source as string, r.snapshot_date);
              const doc = before.get(r.id as string);
              return doc ? changeEvents.updated(c, doc, r) : [changeEvents.added(c, r)];
            });
            return stage(id, changeEvents.withNumbers(events, new Map(subject.map((r) => [r.id as string, r.license_number as string]))));
          },
        };
      }, write),
    /**
     * A batch of relationships, by what the graph held before: new ones start (or, given an end,
     * end); an open one given an end ends; an ended one reopened starts. Only those that landed.
     */
    relationships: (rows: RelationshipChange[], write: (events?: UnitEvents<number[]>) => Promise<number[]>) =>
      recorded((id) => {
        const subject = rows.filter((r) => !firstLoads.has(r.affiliate_state));
        let ends = new Map<string, string | null>();
        return {
          id,
          async before(t) {
            if (subject.length) ends = new Map((await repo.relationshipEnds(t, subject)).map((e) => [relationshipKey(e), (e.effective_to as string | null) ?? null]));
          },
          stage: (_t, landedLines) => {
            const landed = new Set(landedLines);
            const events: ChangeEvent[] = [];
            const numbers = new Map<string, string>();
            for (const r of subject) {
              if (!landed.has(r.line as number)) continue;
              const key = relationshipKey(r);
              const was = ends.has(key) ? ends.get(key)! : undefined;
              const end = (r.effective_to as string | null) ?? null;
              const type = was === undefined ? (end ? 'supervision_ended' : 'supervision_started') : was === null && end ? 'supervision_ended' : was !== null && !end ? 'supervision_started' : undefined;
              if (!type) continue;
              events.push(changeEvents.supervision(ctx(r.affiliate_state, r.source as string), type, r));
              numbers.set(r.supervisor_id as string, r.supervisor_license_number).set(r.affiliate_id as string, r.affiliate_license_number);
            }
            return stage(id, changeEvents.withNumbers(events, numbers));
          },
        };
      }, write),
    /** The unit that ends an import (its counts): a `state_loaded` for each state it loaded first. */
    loaded: (write: (events?: UnitEvents<string[] | void>) => Promise<void>) => recorded(loadedEvents([...firstLoads]), write),
    /** A first import into an empty graph (the bulk path): every state it brings (the unit's jurisdictions) is a first load. */
    bulk: (write: (events?: UnitEvents<string[] | void>) => Promise<boolean>) => recorded(loadedEvents(), write),
  };
}
