import type { AffiliateRecord, AffiliationFilters, AffiliationRecord, CredentialRecord, EdgeFilters, RosterChangeRecord, RosterChangeSummary, RosterPeriodChanges, ShapeSupervisor, SupervisorRecord } from '../domain/credential.js';
import type { JurisdictionRecord } from '../domain/jurisdictions.js';

/**
 * What the services read from the graph, in domain terms. Each engine has its own implementation
 * (graph/neo4j/reads.ts by traversal, graph/ladybug/reads.ts from read models); the composition
 * root picks one, and the conformance suite holds both to the same answers.
 */
export interface GraphReads {
  /** Credential records by id, with their supervision; unknown ids are left out. */
  byIds(ids: string[]): Promise<CredentialRecord[]>;
  /**
   * Credentials by id (unknown ids left out) with the supervisors in force on `day` (default
   * today) of each and, where `up` holds for a supervisor, the supervisors of that supervisor.
   * Per credential, newest relationship first.
   */
  withSupervisors(ids: string[], up?: (s: SupervisorRecord) => boolean, day?: string): Promise<{ records: CredentialRecord[]; open: SupervisorRecord[] }>;
  /** withSupervisors(ids, up) today, each supervisor with only what the public Licensee shape shows of it (a search page reads less). */
  shapeSupervisors(ids: string[], up: (s: ShapeSupervisor) => boolean): Promise<{ records: CredentialRecord[]; open: ShapeSupervisor[] }>;
  /**
   * A credential and every relationship in force on `day` that a walk up from it crosses within
   * `hops` levels, with its supervisor; undefined when the credential is not on file.
   */
  walkUp(id: string, day: string, hops: number): Promise<{ start: CredentialRecord; crossed: SupervisorRecord[] } | undefined>;
  /**
   * The relationships into a credential with their supervisors, newest first: without `as_of`,
   * those in force today (or all of them, `include_inactive`); with it, those in force that day
   * (or every one started by then). Undefined when the credential is not on file.
   */
  affiliations(id: string, f: AffiliationFilters): Promise<AffiliationRecord[] | undefined>;
  /** One page of the relationships in force today out of a supervising credential, and their exact number. */
  affiliates(id: string, f: EdgeFilters, skip: number, limit: number): Promise<{ rows: AffiliateRecord[]; total: number }>;
  /**
   * A supervising credential's relationships that started or ended in each period (periods begin on
   * `starts`, ascending; the last ends on `to`), counted whole with those whose affiliate came from
   * or went to another supervisor (within `windowDays`), each list's page [skip, skip + limit) by
   * day (the start's, or the end's), then in byRosterChange order; and how many were in force on the day before `starts[0]`. None of either
   * for a credential not on file.
   */
  rosterPeriods(id: string, starts: string[], to: string, f: EdgeFilters, windowDays: number, skip: number, limit: number): Promise<{ before: number; periods: RosterPeriodChanges[] }>;
  /**
   * The named records of some of those changes (read with the same `from`, `to` and `windowDays`):
   * the affiliate and where it came from or went. In the order given; one a write removed since is left out.
   */
  rosterChangeRecords(id: string, from: string, to: string, windowDays: number, changes: RosterChangeSummary[]): Promise<RosterChangeRecord[]>;
  /** Credentials per state and licence type. */
  typeCounts(states: string[]): Promise<{ state: string; license_type: string; count: number }[]>;
  /** Every jurisdiction on file with its counts and source (the same query on both engines: a few dozen rows). */
  jurisdictions(): Promise<JurisdictionRecord[]>;
}
