import { AFFILIATE_ROLES, AFFILIATION_STATUSES, RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import {
  CredentialIdParam,
  IsoDate,
  PageParam,
  PaginationMeta,
  PerPageParam,
  QueryBoolean,
  anyCase,
  nullable,
  intQueryParam,
} from '../../http/common.schemas.js';
import { DEMO_BROKER } from '../../http/examples.js';
import { z } from '../../http/zod.js';
import { LicensePath } from '../licensees/licensees.schemas.js';

export const AffiliateRole = z.enum(AFFILIATE_ROLES).openapi('AffiliateRole', {
  description: 'Role of the supervised licence in a relationship (filters take it in any letter case)',
});
export const RelationshipType = z.enum(RELATIONSHIP_TYPES).openapi('RelationshipType', {
  description: 'Kind of supervision; the edge points from the supervisor to the supervised licence (filters take it in any letter case)',
});

const edgeFilters = {
  affiliate_role: anyCase(AffiliateRole).optional(),
  relationship_type: anyCase(RelationshipType).optional(),
};

export const AffiliationsQuery = z.object({
  as_of: IsoDate.optional().openapi({
    description:
      'Day to answer for: relationships in force on that day (effective_from <= as_of < effective_to); with include_inactive=true also those that had ended by then',
  }),
  include_inactive: QueryBoolean.optional()
    .transform((v) => v ?? false)
    .openapi({ type: 'boolean', default: false, description: 'Include relationships that have ended' }),
  ...edgeFilters,
});
export const SupervisorsQuery = z.object(edgeFilters);
export const AffiliatesQuery = z.object({ ...edgeFilters, page: PageParam, per_page: PerPageParam });
/** The licence path, with a supervising brokerage as its example (the others name a salesperson). */
export const SupervisorPath = LicensePath.extend({ license_number: LicensePath.shape.license_number.openapi({ example: DEMO_BROKER }) });
export const HierarchyPath = z.object({ credential_id: CredentialIdParam });
export const HierarchyQuery = z.object({
  max_depth: intQueryParam(1, 25, 10, 'How many levels to walk upward at most'),
});

export const AffiliationHistoryItem = z
  .object({
    supervisor_license_credential_id: z.string(),
    supervisor_license_number: z.string(),
    supervisor_full_name: z.string().nullable().optional(),
    affiliate_role: z.string(),
    relationship_type: z.string(),
    effective_from: z.string().openapi({ format: 'date' }),
    effective_to: z.string().nullable().optional().openapi({ format: 'date' }),
    status: z.string().openapi({
      description: `${AFFILIATION_STATUSES.join(', ')}: in force on as_of (today without as_of), ended by then, or starting later`,
    }),
  })
  .openapi('AffiliationHistoryItem');

export const SupervisorItem = z
  .object({
    license_credential_id: z.string(),
    license_number: z.string(),
    full_name: z.string().nullable().optional(),
    license_class: z.string().nullable().optional().openapi({ description: 'Normalized licence type of the supervisor' }),
    affiliate_role: z.string(),
    relationship_type: z.string(),
    effective_from: z.string().openapi({ format: 'date' }),
    effective_to: z.string().nullable().optional().openapi({ format: 'date' }),
  })
  .openapi('SupervisorItem');

export const AffiliateItem = z
  .object({
    affiliate_license_credential_id: z.string(),
    license_number: z.string(),
    full_name: z.string().nullable().optional(),
    license_class: z.string().nullable().optional().openapi({ description: 'Normalized licence type of the affiliate' }),
    affiliate_role: z.string(),
    relationship_type: z.string(),
    effective_from: z.string().openapi({ format: 'date' }),
  })
  .openapi('AffiliateItem');

export const AffiliationsResponse = z.object({ data: z.array(AffiliationHistoryItem) }).openapi('AffiliationHistory');
export const SupervisorsResponse = z.object({ data: z.array(SupervisorItem) }).openapi('SupervisorList');
export const AffiliatesResponse = z
  .object({ data: z.array(AffiliateItem), meta: PaginationMeta })
  .openapi('AffiliateList');

const HierarchyNode = z.object({
  license_credential_id: z.string(),
  state: z.string(),
  license_number: z.string(),
  full_name: z.string().nullable(),
  license_type: z.string().nullable(),
  status: z.string().nullable(),
});

export const HierarchyLevel = HierarchyNode.extend({
  depth: z.number().int().openapi({ description: '1 for a direct supervisor of the credential, 2 for theirs, ...' }),
  supervises_license_credential_id: z.string().openapi({ description: 'The credential one level down that this one supervises' }),
  relationship_type: z.string(),
  affiliate_role: z.string(),
  effective_from: z.string().openapi({ format: 'date' }),
  effective_to: z.string().nullable(),
}).openapi('HierarchyLevel');

export const HierarchyResponse = z
  .object({
    credential: HierarchyNode,
    levels: z.array(HierarchyLevel).openapi({ description: 'Open supervising relationships walked upward, by depth' }),
    max_depth: z.number().int(),
    depth_reached: z.number().int(),
    terminated_by: z.enum(['top', 'cycle', 'max_depth']).openapi({
      description:
        'top: every branch ended at a licence nobody supervises; cycle: a branch led back to a licence already in the chain; max_depth: the bound stopped the walk',
    }),
    reached_top: z.boolean(),
    cycle_detected: z.boolean(),
    truncated: z.boolean().openapi({ description: 'True when max_depth stopped the walk with supervisors left above' }),
  })
  .openapi('CredentialHierarchy');

export const SingleSupervisorResponse = z
  .object({ data: nullable(SupervisorItem) })
  .openapi('LegacySupervisor', { description: 'The one current supervisor (the brokerage link first, then the newest), or null' });

/** Periods a roster history answers at most. */
export const ROSTER_PERIODS_MAX = 60;

const rosterHistoryFields = {
  period: z.enum(['month', 'week']).default('month').openapi({ description: 'Calendar months, or ISO weeks (Monday to Sunday)' }),
  from: IsoDate.optional().openapi({ description: 'A day in the first period (default: the 12th period back from `to`)' }),
  to: IsoDate.optional().openapi({ description: "A day in the last period (default: today, the service's UTC date)" }),
  ...edgeFilters,
};
const fromNotAfterTo = (q: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be on or before to' });
};
/** The CSV's query: it names every affiliate. */
export const RosterHistoryCsvQuery = z.object(rosterHistoryFields).superRefine(fromNotAfterTo);
export const RosterHistoryQuery = z
  .object({
    ...rosterHistoryFields,
    page: PageParam.openapi({ description: "Which page of each period's lists of affiliates who joined and left to name" }),
    // 10, not the 25 of other lists: a year names up to 24 lists (decision 0039).
    per_page: intQueryParam(1, 100, 10, 'Affiliates named per list and period, 1 to 100'),
  })
  .superRefine(fromNotAfterTo);

const Counterpart = z
  .object({
    license_credential_id: z.string(),
    license_number: z.string(),
    full_name: z.string().nullable(),
    effective_from: z.string().openapi({ format: 'date' }),
    effective_to: z.string().nullable().openapi({ format: 'date' }),
  })
  .openapi('RosterCounterpart');

const RosterAffiliate = z
  .object({
    affiliate_license_credential_id: z.string(),
    license_number: z.string(),
    full_name: z.string().nullable(),
    license_class: z.string().nullable(),
    relationship_type: z.string(),
    affiliate_role: z.string(),
    effective_from: z.string().openapi({ format: 'date' }),
    effective_to: z.string().nullable().openapi({ format: 'date' }),
    transferred_from: Counterpart.nullable().openapi({ description: 'On a joiner: the supervisor whose relationship of this type ended at most 90 days before this one began (a transfer in)' }),
    transferred_to: Counterpart.nullable().openapi({ description: 'On a leaver: the supervisor whose relationship of this type began at most 90 days after this one ended (a transfer out)' }),
  })
  .openapi('RosterAffiliate');

export const RosterPeriod = z
  .object({
    period_start: z.string().openapi({ format: 'date' }),
    period_end: z.string().openapi({ format: 'date' }),
    joined: z.number().int().openapi({ description: 'Relationships that began in the period' }),
    left: z.number().int().openapi({ description: 'Relationships that ended in the period (not in force from their effective_to)' }),
    in_force_at_end: z.number().int().openapi({ description: "Relationships in force on the period's last day" }),
    transfers_in: z.number().int(),
    transfers_out: z.number().int(),
    joined_affiliates: z.array(RosterAffiliate).openapi({ description: 'By start date, then licence number: the page `page` of `per_page` (`joined` counts all; the CSV names every one)' }),
    left_affiliates: z.array(RosterAffiliate).openapi({ description: 'By end date, then licence number: the page `page` of `per_page` (`left` counts all)' }),
  })
  .openapi('RosterPeriod');

export const RosterHistoryResponse = z
  .object({
    supervisor: z.object({ license_credential_id: z.string(), state: z.string(), license_number: z.string(), full_name: z.string().nullable() }),
    period: z.enum(['month', 'week']),
    from: z.string().openapi({ format: 'date', description: "The first period's first day" }),
    to: z.string().openapi({ format: 'date', description: "The last period's last day" }),
    in_force_before: z.number().int().openapi({ description: 'Relationships in force on the day before `from`' }),
    data: z.array(RosterPeriod),
    meta: z.object({ page: z.number().int(), per_page: z.number().int() }).openapi({ description: "The page of each period's lists named: a list holds more when its count exceeds page × per_page" }),
  })
  .openapi('RosterHistory');
