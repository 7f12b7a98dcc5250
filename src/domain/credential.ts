// A licence credential as the service reads it, its supervising relationships, and the rules on them.
import { byCodeUnit } from './sorted.js';

/**
 * The name a credential is known by, everywhere (the record a licensee is read as, a supervisor's
 * name, a licensee node's): a business by its business name, a person by the full name, else the
 * name's parts; null when it has none.
 */
export function displayName(r: {
  entity_type: string | null;
  business_name: string | null;
  full_name: string | null;
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
}): string | null {
  if (r.entity_type === 'business') return r.business_name ?? r.full_name;
  return r.full_name ?? ([r.first_name, r.middle_name, r.last_name].filter(Boolean).join(' ') || r.business_name);
}

/** What a source published of a credential (not when it was seen), in a fixed order. */
export const PUBLISHED_FIELDS = [
  'context_brokerage', 'id', 'state', 'license_number', 'license_number_display', 'license_type', 'license_type_display',
  'status', 'status_normalized', 'entity_type', 'full_name', 'first_name', 'middle_name', 'last_name', 'suffix',
  'business_name', 'issue_date', 'expiration_date', 'address_kind', 'address_line1', 'address_line2', 'address_city',
  'address_county', 'address_region', 'address_postal_code', 'address_country', 'source',
] as const;

/** The published part of a record as text: equal texts mean the source published the same record. */
export const publishedContent = (record: Record<string, unknown>): string => JSON.stringify(PUBLISHED_FIELDS.map((k) => record[k] ?? null));

/**
 * Where a credential sorts by name (search pages, a supervisor's affiliates): by its folded last
 * name (else business or full name), first and middle names, then its licence number. U+0001
 * sorts before any printable character, so a shorter name sorts first.
 */
export const nameSortKey = (folded: { last: string | null; business: string | null; full: string | null; first: string | null; middle: string | null }, licenseNumber: string) =>
  `${[folded.last ?? folded.business ?? folded.full ?? '', folded.first ?? '', folded.middle ?? ''].join(' ').trim()}\u0001${licenseNumber}`;

export interface CredentialRecord {
  id: string;
  state: string;
  license_number: string;
  license_number_display: string | null;
  license_type: string | null;
  license_type_display: string | null;
  status: string | null;
  status_normalized: string | null;
  entity_type: string | null;
  full_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  suffix: string | null;
  business_name: string | null;
  issue_date: string | null;
  expiration_date: string | null;
  address_kind: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_county: string | null;
  address_region: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  source: string | null;
  snapshot_date: string | null;
  last_verified: string | null;
  data_source_notes: string[] | null;
  relationship_coverage: string;
  context_brokerage: string | null;
  /** Every supervising relationship of the credential, in force or not (its supervisor list). */
  supervision: SupervisionEntry[];
}

/** One supervising relationship as a supervisor list holds it. */
export interface SupervisionEntry {
  supervisor_id: string;
  affiliate_role: string;
  relationship_type: string;
  effective_from: string;
  effective_to: string | null;
}

/** A relationship into a credential with its supervisor's identity (affiliations). */
export interface AffiliationRecord extends Omit<SupervisionEntry, 'supervisor_id'> {
  id: string;
  license_number: string;
  full_name: string | null;
  business_name: string | null;
}

/**
 * A supervisor's record with the relationship by which it supervises `affiliate_id`; without its
 * own supervision (no reader needs it, and Neo4j would read every relationship into it).
 */
export interface SupervisorRecord extends Omit<CredentialRecord, 'supervision'>, Omit<SupervisionEntry, 'supervisor_id'> {
  affiliate_id: string;
}

/** What the public Licensee shape shows of a supervisor: its names, number, kind and address. */
export const SHAPE_SUPERVISOR_FIELDS = [
  'id', 'license_number', 'entity_type', 'license_type', 'full_name', 'first_name', 'middle_name', 'last_name', 'business_name',
  'address_kind', 'address_line1', 'address_line2', 'address_city', 'address_county', 'address_region', 'address_postal_code', 'address_country',
] as const;
/** A supervisor as a Licensee shape reads it: those fields and its relationship. */
export type ShapeSupervisor = Pick<SupervisorRecord, (typeof SHAPE_SUPERVISOR_FIELDS)[number] | 'affiliate_id' | 'affiliate_role' | 'relationship_type' | 'effective_from' | 'effective_to'>;

/**
 * The order of a credential's supervision entries, on every engine: by supervisor id, role, type,
 * start and end (an empty role or absent end first).
 */
export const bySupervisionEntry = (a: SupervisionEntry, b: SupervisionEntry) => {
  for (const k of ['supervisor_id', 'affiliate_role', 'relationship_type', 'effective_from', 'effective_to'] as const) {
    const x = a[k] ?? '';
    const y = b[k] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

/** Supervisors of several credentials: per credential, newest relationship first. */
export const bySupervision = (a: ShapeSupervisor, b: ShapeSupervisor) =>
  a.affiliate_id.localeCompare(b.affiliate_id) || b.effective_from.localeCompare(a.effective_from) || a.license_number.localeCompare(b.license_number);

/** In force on `day` (YYYY-MM-DD): started by then and not yet ended. */
export const inForce = (r: { effective_from: string; effective_to: string | null }, day: string) =>
  r.effective_from <= day && (r.effective_to === null || r.effective_to > day);

/**
 * A relationship out of a supervising credential with its affiliate's identity (affiliates).
 * Affiliates come in one order on every engine: by the affiliate's name (nameSortKey) and id, then
 * the relationship's type and start. A relationship is one per (supervisor, affiliate, type,
 * start), so no two tie and the role and end never decide.
 */
export interface AffiliateRecord {
  id: string;
  license_number: string;
  full_name: string | null;
  business_name: string | null;
  license_type: string | null;
  affiliate_role: string;
  relationship_type: string;
  effective_from: string;
}

/** Another supervisor's relationship of the same type an affiliate came from or went to. */
export interface CounterpartRecord {
  id: string;
  license_number: string;
  full_name: string | null;
  business_name: string | null;
  effective_from: string;
  effective_to: string | null;
}

/** A supervisor's relationship that started or ended in a window, with where its affiliate came from or went. */
export interface RosterChangeRecord extends AffiliateRecord {
  effective_to: string | null;
  /** Started in the window: the affiliate's latest relationship of this type under another supervisor that ended at most `windowDays` before. */
  came_from: CounterpartRecord | null;
  /** Ended in the window: the affiliate's earliest relationship of this type under another supervisor that started at most `windowDays` after. */
  went_to: CounterpartRecord | null;
}

/**
 * A roster change on a roster history's page: the relationship's identity and dates, and `ref`, the
 * engine's handle to read its named record by.
 */
export interface RosterChangeSummary {
  ref: string;
  id: string;
  license_number: string;
  affiliate_role: string;
  relationship_type: string;
  effective_from: string;
  effective_to: string | null;
}

/** A period's roster changes: both lists counted whole, with their transfers, and one page of each named. */
export interface RosterPeriodChanges {
  joined: number;
  left: number;
  transfers_in: number;
  transfers_out: number;
  /** The page of those that began in the period, by start, then in byRosterChange order. */
  joinedPage: RosterChangeSummary[];
  /** The page of those that ended in the period, by end, then in byRosterChange order. */
  leftPage: RosterChangeSummary[];
}

/** Filters on a relationship's role and type. */
export interface EdgeFilters {
  affiliate_role?: string;
  relationship_type?: string;
}

/** Which relationships into a credential: in force today, on `as_of`, or every one (`include_inactive`). */
/** The relationship has the role and type the filters ask for (each filter absent: any). */
export const matchesEdge = (r: { affiliate_role: string | null; relationship_type: string }, f: EdgeFilters) =>
  (!f.affiliate_role || r.affiliate_role === f.affiliate_role) && (!f.relationship_type || r.relationship_type === f.relationship_type);

export interface AffiliationFilters extends EdgeFilters {
  as_of?: string;
  include_inactive: boolean;
}

/** Affiliations: newest first, then by the supervisor's licence number and the relationship type. */
export const byAffiliation = (a: AffiliationRecord, b: AffiliationRecord) =>
  b.effective_from.localeCompare(a.effective_from) || a.license_number.localeCompare(b.license_number) || a.relationship_type.localeCompare(b.relationship_type);

/**
 * Roster changes on one day: by the affiliate's licence number and id, then the relationship's
 * type, start and role, each by code unit, as Neo4j's roster queries order them (roster-changes-days.cypher).
 */
type RosterOrderKey = Pick<RosterChangeSummary, 'license_number' | 'id' | 'relationship_type' | 'effective_from' | 'affiliate_role'>;
export const byRosterChange = (a: RosterOrderKey, b: RosterOrderKey) =>
  byCodeUnit(a.license_number, b.license_number) || byCodeUnit(a.id, b.id) || byCodeUnit(a.relationship_type, b.relationship_type) || byCodeUnit(a.effective_from, b.effective_from) || byCodeUnit(a.affiliate_role, b.affiliate_role);

/**
 * Where an affiliate came from (`started` true: its latest relationship of `type` under another
 * supervisor that ended on `day` or up to `windowDays` before) or went (its earliest one that
 * started on `day` or up to `windowDays` after). Both engines apply it (Neo4j in Cypher).
 */
export function counterpartEntry(supervision: SupervisionEntry[], supervisorId: string, type: string, day: string, started: boolean, windowDays: number, shift: (day: string, days: number) => string): SupervisionEntry | undefined {
  let best: SupervisionEntry | undefined;
  const edge = shift(day, started ? -windowDays : windowDays);
  for (const e of supervision) {
    if (e.supervisor_id === supervisorId || e.relationship_type !== type) continue;
    if (started) {
      if (e.effective_to === null || e.effective_to > day || e.effective_to < edge) continue;
      if (!best || e.effective_to > best.effective_to!) best = e;
    } else {
      if (e.effective_from < day || e.effective_from > edge) continue;
      if (!best || e.effective_from < best.effective_from) best = e;
    }
  }
  return best;
}
