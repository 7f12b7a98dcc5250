import type { Row } from '../../graph/graph-port.js';
import type { PreparedLink } from '../rows/prepared-rows.js';

/**
 * What a refresh holds for the whole run: one entry per credential on file and per link asked
 * for, so kept small (docs/decisions/0018): values shared rather than copied, no raw lines,
 * flags on the entries instead of sets of ids.
 */

/** One instance of each of the few distinct values a field takes (dates, sources, roles, file names). */
export function sharedValues() {
  const values = new Map<string, string>();
  return <T extends string | null | undefined>(s: T): T => {
    if (typeof s !== 'string') return s;
    const v = values.get(s);
    if (v !== undefined) return v as T;
    values.set(s, s);
    return s;
  };
}

/** A credential of the state on file before the run, and what the run's files said of it. */
export interface OnFile {
  id: string;
  row_hash: string | null;
  snapshot_date: string | null;
  left_source_on: string | null;
  licensee_id: string | null;
  source: string;
  /** A row of the files landed on it. */
  seen: boolean;
  /** The files list its licence, valid row or not: a rejected row does not mean the licence left. */
  listed: boolean;
}

/** A supervision link a row asks for, and how it compares with the links on file (diffLinks). */
export interface DesiredLink {
  supervisor_id: string;
  affiliate_id: string;
  affiliate_role: string;
  relationship_type: string;
  effective_from: string | null;
  supervisor_license_number: string;
  file: string;
  line: number;
  /** Open on file as asked (`kept`), open with another role, or ended on file with the start it would get. */
  found: 'kept' | 'role changed' | 'ended' | null;
}

/** The links asked for, by affiliate: the later of two the same wins. */
export class DesiredLinks {
  // Most affiliates ask for one link: held alone, not in an array.
  private readonly byAffiliate = new Map<string, DesiredLink | DesiredLink[]>();

  private list(affiliateId: string): DesiredLink[] {
    const held = this.byAffiliate.get(affiliateId);
    return held === undefined ? [] : Array.isArray(held) ? held : [held];
  }

  private hold(affiliateId: string, links: DesiredLink[]) {
    if (!links.length) this.byAffiliate.delete(affiliateId);
    else this.byAffiliate.set(affiliateId, links.length === 1 ? links[0] : links);
  }

  set(link: DesiredLink) {
    const same = (l: DesiredLink) => l.supervisor_id === link.supervisor_id && l.relationship_type === link.relationship_type;
    this.hold(link.affiliate_id, [...this.list(link.affiliate_id).filter((l) => !same(l)), link]);
  }

  /** The links asked for an affiliate. */
  ofAffiliate(affiliateId: string): DesiredLink[] {
    return this.list(affiliateId);
  }

  /** Whether a link of this type is asked for the affiliate. */
  asks(affiliateId: string, relationshipType: string): boolean {
    return this.list(affiliateId).some((l) => l.relationship_type === relationshipType);
  }

  get(supervisorId: string, affiliateId: string, relationshipType: string): DesiredLink | undefined {
    return this.list(affiliateId).find((l) => l.supervisor_id === supervisorId && l.relationship_type === relationshipType);
  }

  delete(link: DesiredLink) {
    this.hold(link.affiliate_id, this.list(link.affiliate_id).filter((l) => l !== link));
  }

  *[Symbol.iterator](): IterableIterator<DesiredLink> {
    for (const held of [...this.byAffiliate.values()]) yield* Array.isArray(held) ? held : [held];
  }

  /** Ids of the supervisors asked for. */
  supervisors(): Set<string> {
    const ids = new Set<string>();
    for (const link of this) ids.add(link.supervisor_id);
    return ids;
  }
}

/** What the files said: the credentials on file before (marked as the files list them), those the run created, the links asked for. */
export class Read {
  readonly onFile = new Map<string, OnFile>();
  /** Ids of the landed rows that were not on file (each its one instance). */
  readonly added = new Map<string, string>();
  readonly desired = new DesiredLinks();
  readonly shared = sharedValues();

  /** Takes the state's credentials on file (refresh-repo `existing` rows) as they are read. */
  async take(rows: AsyncIterable<Row>): Promise<this> {
    const s = this.shared;
    for await (const r of rows) {
      const id = r.id as string;
      this.onFile.set(id, {
        id,
        row_hash: (r.row_hash as string | null) ?? null,
        snapshot_date: s((r.snapshot_date as string | null) ?? null),
        left_source_on: s((r.left_source_on as string | null) ?? null),
        licensee_id: (r.licensee_id as string | null) ?? null,
        source: s(r.source as string),
        seen: false,
        listed: false,
      });
    }
    return this;
  }

  /** A row of the files landed on this credential. */
  seen(id: string): boolean {
    return this.onFile.get(id)?.seen ?? this.added.has(id);
  }

  /** The files list this credential on file (any other: false). */
  listed(id: string): boolean {
    return this.onFile.get(id)?.listed ?? false;
  }

  /** The one instance of an id the run holds already, else `id`. */
  id(id: string): string {
    return this.onFile.get(id)?.id ?? this.added.get(id) ?? id;
  }

  /** A prepared link of the landed row `affiliateId`, held without what only its row needed. */
  want(link: PreparedLink, affiliateId: string, file: string, line: number) {
    const s = this.shared;
    this.desired.set({
      supervisor_id: this.id(link.supervisor_id),
      affiliate_id: affiliateId,
      affiliate_role: s(link.affiliate_role),
      relationship_type: s(link.relationship_type),
      effective_from: s(link.effective_from),
      supervisor_license_number: s(link.supervisor_license_number),
      file: s(file),
      line,
      found: null,
    });
  }
}
