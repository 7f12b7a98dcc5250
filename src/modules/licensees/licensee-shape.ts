import {
  BROKERAGE_RELATIONSHIP_TYPES,
  DESIGNATION_RELATIONSHIP_TYPES,
  EMPLOYMENT_TYPE_BY_RELATIONSHIP,
  supervisionEmptyReason,
  supervisionPublishedInFull,
  type RelationshipCoverage,
  type RelationshipType,
} from '../../domain/vocabulary.js';
import { displayName, type CredentialRecord, type ShapeSupervisor } from '../../domain/credential.js';
import type { Licensee } from './licensees.schemas.js';

type AddressFields = Pick<
  CredentialRecord,
  | 'address_kind'
  | 'address_line1'
  | 'address_line2'
  | 'address_city'
  | 'address_county'
  | 'address_region'
  | 'address_postal_code'
  | 'address_country'
>;

export function publicAddress(r: AddressFields): Licensee['address'] {
  if (!r.address_kind) return null;
  return {
    kind: r.address_kind,
    line1: r.address_line1,
    line2: r.address_line2,
    city: r.address_city,
    county: r.address_county,
    region: r.address_region,
    postal_code: r.address_postal_code,
    country: r.address_country,
  };
}

const BUSINESS_TYPES = new Set(['brokerage', 'branch_office']);
export const isBusiness = (r: { entity_type: string | null; license_type: string | null }) =>
  r.entity_type === 'business' || BUSINESS_TYPES.has(r.license_type ?? '');

const isBrokerageLink = (s: ShapeSupervisor) => BROKERAGE_RELATIONSHIP_TYPES.includes(s.relationship_type as RelationshipType);
const isDesignation = (s: ShapeSupervisor) => DESIGNATION_RELATIONSHIP_TYPES.includes(s.relationship_type as RelationshipType);

/**
 * Whether a licence's shape names the designated brokers of this supervisor of it: a business that
 * is its current brokerage. (A brokerage's own designations are among its own supervisors.)
 */
export const namesDesignationsOf = (s: ShapeSupervisor) => isBrokerageLink(s) && isBusiness(s);

/**
 * The public Licensee shape of one credential.
 * @param open the credential's open supervising relationships, newest first
 * @param openOf open supervising relationships of its own supervisors (see namesDesignationsOf)
 */
export function toLicensee(
  c: CredentialRecord,
  open: ShapeSupervisor[],
  openOf: (id: string) => ShapeSupervisor[],
): Licensee {
  const brokerageLinks = open.filter(isBrokerageLink);
  const coverage = c.relationship_coverage as RelationshipCoverage;

  const designated = new Map<string, NonNullable<Licensee['designated_broker']>>();
  const addDesignated = (s: ShapeSupervisor) => {
    if (!designated.has(s.id)) designated.set(s.id, { name: displayName(s) || null, license_number: s.license_number, address: publicAddress(s) });
  };
  if (isBusiness(c)) openOf(c.id).filter(isDesignation).forEach(addDesignated);
  for (const link of brokerageLinks) {
    if (isBusiness(link)) openOf(link.id).filter(isDesignation).forEach(addDesignated);
    else addDesignated(link);
  }
  const designatedBrokers = [...designated.values()];

  const current = brokerageLinks[0];
  let brokerage: Pick<Licensee, 'brokerage' | 'brokerage_source' | 'brokerage_confidence'> = {
    brokerage: null,
    brokerage_source: null,
    brokerage_confidence: null,
  };
  if (current) brokerage = { brokerage: displayName(current) ?? '', brokerage_source: 'verified_supervision', brokerage_confidence: 'verified' };
  else if (c.context_brokerage) brokerage = { brokerage: c.context_brokerage, brokerage_source: 'business_name', brokerage_confidence: 'source_reported' };

  let employmentType: string | null = null;
  const employing = current ?? open.find((s) => EMPLOYMENT_TYPE_BY_RELATIONSHIP[s.relationship_type as RelationshipType]);
  if (employing) employmentType = EMPLOYMENT_TYPE_BY_RELATIONSHIP[employing.relationship_type as RelationshipType] ?? null;
  else if (c.license_type === 'broker' && c.status_normalized === 'active' && supervisionPublishedInFull(coverage, c)) {
    // A broker the source lists under no sponsor, where it publishes brokers' sponsors, practises on their own licence.
    employmentType = 'independent';
  }

  return {
    id: c.id,
    full_name: c.full_name,
    license_number: c.license_number,
    license_number_display: c.license_number_display,
    license_type: c.license_type,
    license_type_display: c.license_type_display,
    status: c.status,
    state: c.state,
    issue_date: c.issue_date,
    expiration_date: c.expiration_date,
    ...brokerage,
    relationship_coverage: coverage,
    supervision_empty_reason: open.length ? null : supervisionEmptyReason(coverage, c),
    supervising_brokerages: [...new Set(brokerageLinks.map((s) => displayName(s) ?? ''))],
    supervising_brokerages_detail: brokerageLinks.map((s) => ({
      name: displayName(s) ?? '',
      license_number: s.license_number,
      address: publicAddress(s),
    })),
    employment_type: employmentType,
    designated_brokers: designatedBrokers,
    designated_broker: designatedBrokers[0] ?? null,
    current_affiliate_roles: [...new Set(open.map((s) => s.affiliate_role))].sort(),
    last_verified: c.last_verified,
    first_name: c.first_name,
    middle_name: c.middle_name,
    last_name: c.last_name,
    business_name: c.business_name,
    city: c.address_city,
    address: publicAddress(c),
    disciplinary_actions: [],
    data_source_notes: c.data_source_notes ?? [],
  };
}
