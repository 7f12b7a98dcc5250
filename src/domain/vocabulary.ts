// The value lists of the public contract. Defined once: validation, import and the OpenAPI
// document all read them from here.

export const STATUS_FILTER_VALUES = ['active', 'inactive', 'expired', 'suspended'] as const;
export type StatusFilter = (typeof STATUS_FILTER_VALUES)[number];

export const LICENSE_TYPES = [
  'broker',
  'salesperson',
  'broker_associate',
  'brokerage',
  'branch_office',
  'officer',
  'professional_inspector',
  'real_estate_inspector',
  'apprentice_inspector',
  'instructor',
  'other',
] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];

export const AFFILIATE_ROLES = [
  'salesperson',
  'broker_associate',
  'brokerage',
  'branch',
  'officer',
  'apprentice',
  'inspector',
] as const;
export type AffiliateRole = (typeof AFFILIATE_ROLES)[number];

export const RELATIONSHIP_TYPES = [
  'sponsoring_broker',
  'employing_broker',
  'designated_broker',
  'designated_officer',
  'main_office',
  'supervising_inspector',
  'supervising_broker',
] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** Relationship types whose supervisor is the affiliate's brokerage. */
export const BROKERAGE_RELATIONSHIP_TYPES: readonly RelationshipType[] = [
  'sponsoring_broker',
  'employing_broker',
  'main_office',
  'supervising_broker',
];
/** Relationship types whose supervisor is a designated broker/officer of the affiliate. */
export const DESIGNATION_RELATIONSHIP_TYPES: readonly RelationshipType[] = [
  'designated_broker',
  'designated_officer',
];

export const EMPLOYMENT_TYPE_BY_RELATIONSHIP: Partial<Record<RelationshipType, string>> = {
  sponsoring_broker: 'sponsored',
  employing_broker: 'employed',
  main_office: 'branch',
  supervising_inspector: 'supervised',
  supervising_broker: 'supervised',
};

export const RELATIONSHIP_COVERAGE_VALUES = [
  'verified_graph',
  'verified_graph_partial',
  'source_context_only',
  'source_not_published',
  'not_yet_ingested',
] as const;
export type RelationshipCoverage = (typeof RELATIONSHIP_COVERAGE_VALUES)[number];

/** Why a licence lists no supervision, by the coverage of its jurisdiction. */
export const SUPERVISION_EMPTY_REASONS = [
  'authoritative_absence',
  'partial_coverage',
  'source_context_only',
  'source_not_published',
  'not_yet_ingested',
] as const;
const EMPTY_REASON_BY_COVERAGE: Record<RelationshipCoverage, (typeof SUPERVISION_EMPTY_REASONS)[number]> = {
  verified_graph: 'authoritative_absence',
  verified_graph_partial: 'partial_coverage',
  source_context_only: 'source_context_only',
  source_not_published: 'source_not_published',
  not_yet_ingested: 'not_yet_ingested',
};

/**
 * Licence types whose supervision a `verified_graph_partial` source publishes in full, by source
 * id: for these licences an empty supervisor list is the source's own word, not a gap.
 */
const FULL_SUPERVISION_BY_SOURCE: Readonly<Record<string, readonly LicenseType[]>> = {
  'ca-dre': ['salesperson'],
  'ct-dcp': ['salesperson'],
};

/** Whether the supervision of a licence is published in full: its state's graph is verified, or its source publishes its type's. */
export function supervisionPublishedInFull(coverage: RelationshipCoverage, c: { source: string | null; license_type: string | null }): boolean {
  if (coverage === 'verified_graph') return true;
  return coverage === 'verified_graph_partial' && (FULL_SUPERVISION_BY_SOURCE[c.source ?? ''] ?? []).includes(c.license_type as LicenseType);
}

/** Why a licence with no supervisor in force lists none. */
export function supervisionEmptyReason(coverage: RelationshipCoverage, c: { source: string | null; license_type: string | null }) {
  return supervisionPublishedInFull(coverage, c) ? 'authoritative_absence' : EMPTY_REASON_BY_COVERAGE[coverage];
}

export const BROKERAGE_SOURCES = ['verified_supervision', 'business_name'] as const;
export const BROKERAGE_CONFIDENCES = ['verified', 'source_reported'] as const;

export const ADDRESS_KINDS = ['business', 'mailing', 'physical'] as const;
export const ENTITY_TYPES = ['person', 'business'] as const;
export const JURISDICTION_STATUSES = ['active', 'paused', 'planned'] as const;
export const REFRESH_FREQUENCIES = ['daily', 'nightly', 'weekly', 'monthly', 'quarterly', 'irregular'] as const;
export const AFFILIATION_STATUSES = ['active', 'ended', 'scheduled'] as const;

/**
 * Published status -> search filter value. Keys are folded (lower case, single spaces,
 * punctuation other than letters, digits and spaces removed). Every published status maps to
 * exactly one filter value; a status missing here is rejected at import unless the row gives
 * `status_normalized` itself.
 */
export const STATUS_TABLE: Readonly<Record<string, StatusFilter>> = {
  active: 'active',
  current: 'active',
  'current active': 'active',
  licensed: 'active',
  'licensed nba': 'active',
  probation: 'active',
  'probation active': 'active',
  'probation inactive': 'inactive',
  inactive: 'inactive',
  'current inactive': 'inactive',
  'invol inactive': 'inactive',
  'involuntary inactive': 'inactive',
  revoked: 'inactive',
  surrendered: 'inactive',
  deceased: 'inactive',
  deleted: 'inactive',
  relinquished: 'inactive',
  cancelled: 'inactive',
  canceled: 'inactive',
  retired: 'inactive',
  'null and void': 'inactive',
  expired: 'expired',
  'expired less than 6 months': 'expired',
  'expired more than 6 months': 'expired',
  delinquent: 'expired',
  'current delinquent': 'expired',
  suspended: 'suspended',
  'current suspended': 'suspended',
};

export function statusTableKey(published: string): string {
  return published
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function normalizeStatus(published: string): StatusFilter | undefined {
  return STATUS_TABLE[statusTableKey(published)];
}
