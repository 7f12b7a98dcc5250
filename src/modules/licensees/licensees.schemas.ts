import {
  BROKERAGE_CONFIDENCES,
  BROKERAGE_SOURCES,
  LICENSE_TYPES,
  RELATIONSHIP_COVERAGE_VALUES,
  STATUS_FILTER_VALUES,
  SUPERVISION_EMPTY_REASONS,
} from '../../domain/vocabulary.js';
import {
  LicenseNumberParam,
  PageParam,
  PaginationMeta,
  PerPageParam,
  StateCode,
  nullable,
  StateCodeAsSent,
  anyCase,
  searchText,
  keepableText,
  KEEPABLE_MESSAGE,
} from '../../http/common.schemas.js';
import { NAME_MATCH_RESULTS } from '../../domain/name-match.js';
import { REASONS, REASON_RULES, VERDICTS } from '../../domain/verdict.js';
import { DEMO_BROKER, DEMO_FIRST_NAME, DEMO_FL_LICENCE, DEMO_LAST_NAME, DEMO_LICENCE, DEMO_MISSING_LICENCE } from '../../http/examples.js';
import { z } from '../../http/zod.js';

export const RelationshipCoverage = z.enum(RELATIONSHIP_COVERAGE_VALUES).openapi('RelationshipCoverage', {
  description:
    'How the jurisdiction covers supervision: verified_graph (published links, complete), verified_graph_partial ' +
    '(published links, some kinds missing), source_context_only (the source names an employer or brokerage but the ' +
    'service does not expose it as a verified supervision graph), source_not_published, not_yet_ingested.',
});

export const PublicAddress = z
  .object({
    kind: z.string().openapi({ description: 'business, mailing or physical', example: 'business' }),
    line1: z.string().nullable().optional(),
    line2: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    county: z.string().nullable().optional(),
    region: z.string().nullable().optional(),
    postal_code: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
  })
  .openapi('PublicAddress');

export const PublicDesignatedBroker = z
  .object({
    name: z.string().nullable().optional(),
    license_number: z.string(),
    address: nullable(PublicAddress).optional(),
  })
  .openapi('PublicDesignatedBroker');

export const PublicSupervisorDetail = z
  .object({
    name: z.string(),
    license_number: z.string(),
    address: nullable(PublicAddress).optional(),
  })
  .openapi('PublicSupervisorDetail');

export const Licensee = z
  .object({
    id: z.string().openapi({ description: 'Licence credential id (UUIDv5 of state and canonical licence number)', format: 'uuid' }),
    full_name: z.string().nullable().optional(),
    license_number: z.string().openapi({ description: 'Canonical licence number' }),
    license_number_display: z.string().nullable().optional().openapi({ description: 'Licence number as published' }),
    license_type: z.string().nullable().optional().openapi({ description: `Normalized type: ${LICENSE_TYPES.join(', ')}` }),
    license_type_display: z.string().nullable().optional(),
    status: z.string().nullable().optional().openapi({ description: 'Status as published (e.g. Active, Probation - Active)' }),
    state: z.string(),
    issue_date: z.string().nullable().optional().openapi({ format: 'date' }),
    expiration_date: z.string().nullable().optional().openapi({ format: 'date' }),
    brokerage: z.string().nullable().optional(),
    relationship_coverage: RelationshipCoverage,
    brokerage_source: z.enum(BROKERAGE_SOURCES).nullable().optional(),
    brokerage_confidence: z.enum(BROKERAGE_CONFIDENCES).nullable().optional(),
    supervision_empty_reason: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: `Why no supervision is listed; null when some is: ${SUPERVISION_EMPTY_REASONS.join(', ')}` }),
    supervising_brokerages: z.array(z.string()),
    supervising_brokerages_detail: z.array(PublicSupervisorDetail),
    employment_type: z.string().nullable().optional().openapi({ description: 'sponsored, employed, branch, supervised, independent' }),
    designated_brokers: z.array(PublicDesignatedBroker),
    designated_broker: nullable(PublicDesignatedBroker).optional(),
    current_affiliate_roles: z.array(z.string()),
    last_verified: z.string().nullable().optional().openapi({ format: 'date-time' }),
    first_name: z.string().nullable().optional(),
    middle_name: z.string().nullable().optional(),
    last_name: z.string().nullable().optional(),
    business_name: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    address: nullable(PublicAddress).optional(),
    disciplinary_actions: z.array(z.unknown()),
    data_source_notes: z.array(z.string()),
  })
  .openapi('Licensee');
export type Licensee = z.infer<typeof Licensee>;

export const LicenseeListResponse = z.object({ data: z.array(Licensee), meta: PaginationMeta }).openapi('LicenseeList');

export const VerdictValue = z.enum(VERDICTS).openapi('Verdict', {
  description:
    'clear: on file with nothing to look at; consider: on file, and a reason needs a person\'s look; not_found: no licence with that ' +
    'state and number on file. The rules are in docs/verdicts.md.',
});
export const ReasonValue = z.enum(REASONS).openapi('VerdictReason', {
  description: `Why the verdict is what it is (each reason says whether it makes a found licence consider or is a note): ${REASONS.map((r) => `${r} (${REASON_RULES[r].effect}): ${REASON_RULES[r].meaning}`).join(' ')}`,
});
export const NameMatch = z
  .object({
    result: z.enum(NAME_MATCH_RESULTS).openapi({
      description:
        'exact: the same name once case, accents, punctuation, spacing, order and suffixes are set aside; close: the same name ' +
        'written differently (nickname, initial, missing middle name, part of a two-word surname, a typing slip in a long name); mismatch: another name',
    }),
    score: z.number().min(0).max(1).openapi({ description: 'Similarity from 0 to 1 (1 for exact)' }),
    compared_with: z
      .object({ field: z.enum(['full_name', 'business_name']), value: z.string() })
      .openapi({ description: 'The record\'s name the one sent was compared with, as published' }),
  })
  .openapi('NameMatch', { description: 'How the name sent compares with the licence holder\'s. Null when no name was sent or no licence was found.' });
export const VerificationSource = z
  .object({
    id: z.string().nullable(),
    name: z.string().nullable(),
    refresh_frequency: z.string().nullable(),
    snapshot_date: z.string().nullable().openapi({ format: 'date', description: 'Date of the source snapshot last published' }),
    refreshed_at: z.string().nullable().openapi({ format: 'date-time', description: 'The last successful refresh or import of the state' }),
    age_days: z.number().int().nullable().openapi({ description: 'Whole days since refreshed_at' }),
    stale_after: z.string().nullable().openapi({ format: 'date-time', description: 'refreshed_at plus twice the refresh frequency; null for an irregular source' }),
    stale: z.boolean().openapi({ description: 'Past stale_after (the reason source_stale)' }),
  })
  .openapi('VerificationSource', { description: 'The state source the answer rests on; null for a jurisdiction with no data here.' });

const verdictFields = {
  verdict: VerdictValue,
  reasons: z.array(ReasonValue),
  name_match: nullable(NameMatch),
  source: nullable(VerificationSource),
};
export const VerifyResponse = z
  .object({ verified: z.boolean(), licensee: nullable(Licensee).optional(), ...verdictFields })
  .openapi('VerifyResponse');
export const LicenseeResponse = z.object({ data: Licensee }).openapi('LicenseeResponse');

export const StatusFilter = z
  .enum(STATUS_FILTER_VALUES)
  .openapi('StatusFilter', { description: 'Normalized status filter, in any letter case' });
export const LicenseTypeFilter = z
  .enum(LICENSE_TYPES)
  .openapi('LicenseTypeFilter', { description: 'Normalized licence type, in any letter case' });

export const SearchQuery = z.object({
  state: StateCode,
  name: searchText('Every whitespace-separated term must appear (case- and accent-insensitive) in the full, first, last or business name'),
  first_name: searchText('Substring of the first name (case- and accent-insensitive; every term must match)'),
  last_name: searchText('Substring of the last name'),
  business_name: searchText('Substring of the business name'),
  status: anyCase(StatusFilter).optional(),
  license_type: anyCase(LicenseTypeFilter).optional(),
  brokerage: searchText('Every term must appear in the name of a current brokerage (verified supervisor or business-name context)'),
  city: searchText('Substring of the city'),
  page: PageParam,
  per_page: PerPageParam,
});
export type SearchQuery = z.infer<typeof SearchQuery>;

const nameText = (description: string) =>
  z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters').refine(keepableText, KEEPABLE_MESSAGE).optional().openapi({ description });
/** The name of who presents the licence: `name`, or `first_name` and `last_name`, never both forms. */
const nameFields = {
  name: nameText('The holder\'s name in any order ("SMITH, JOHN A" or "John A. Smith"), or a firm\'s business name: adds name_match'),
  first_name: nameText('The holder\'s given name (with last_name; instead of name)'),
  last_name: nameText('The holder\'s surname (with first_name; instead of name)'),
};
const oneNameForm = (v: { name?: string; first_name?: string; last_name?: string }, ctx: z.RefinementCtx) => {
  if (v.name && (v.first_name || v.last_name)) ctx.addIssue({ code: 'custom', path: ['name'], message: 'send name, or first_name and last_name, not both' });
  else if (Boolean(v.first_name) !== Boolean(v.last_name)) {
    ctx.addIssue({ code: 'custom', path: [v.first_name ? 'last_name' : 'first_name'], message: 'first_name and last_name go together (or send the whole name as name)' });
  }
};
export const VerifyQuery = z.object({ state: StateCode, license_number: LicenseNumberParam, ...nameFields }).superRefine(oneNameForm);

export const LicensePath = z.object({ state: StateCode, license_number: LicenseNumberParam });

export const BatchVerifyItem = z
  .object({
    state: StateCodeAsSent,
    license_number: LicenseNumberParam,
    ...nameFields,
  })
  .superRefine(oneNameForm)
  .openapi('BatchVerifyItem');
/** The documented batch: a licence with its holder's name, a broker, another state's licence and a miss. */
export const BATCH_EXAMPLE = [
  { state: 'TX', license_number: DEMO_LICENCE, first_name: DEMO_FIRST_NAME, last_name: DEMO_LAST_NAME },
  { state: 'TX', license_number: DEMO_BROKER },
  { state: 'FL', license_number: DEMO_FL_LICENCE },
  { state: 'TX', license_number: DEMO_MISSING_LICENCE },
];
export const BatchVerifyRequest = z
  .object({
    licenses: z
      .array(BatchVerifyItem)
      .min(1, 'must hold at least 1 item')
      .max(100, 'must hold at most 100 items'),
  })
  .openapi('BatchVerifyRequest', {
    example: { licenses: BATCH_EXAMPLE },
  });
/** A comma-separated list of verdicts (a filter), in any case. */
export const VerdictList = z
  .string()
  .transform((v, ctx) => {
    const wanted = [...new Set(v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
    if (!wanted.length) ctx.addIssue({ code: 'custom', message: `must name at least one of ${VERDICTS.join(', ')}` });
    const unknown = wanted.filter((w) => !(VERDICTS as readonly string[]).includes(w));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of ${VERDICTS.join(', ')} (not ${unknown.join(', ')})` });
    return wanted as (typeof VERDICTS)[number][];
  })
  .openapi({ type: 'string', example: 'consider,not_found', pattern: `^(${VERDICTS.join('|')})(,(${VERDICTS.join('|')}))*$` });
export const BatchVerifyQuery = z.object({
  verdict: VerdictList.optional().openapi({ description: `Return only results with these verdicts (comma-separated: ${VERDICTS.join(', ')}); each result keeps its \`index\`` }),
});
export const BatchVerifyResult = z
  .object({
    index: z.number().int().openapi({ description: 'Position of the item in the request, from 0' }),
    state: z.string(),
    license_number: z.string(),
    verified: z.boolean(),
    licensee: nullable(Licensee).optional(),
    ...verdictFields,
  })
  .openapi('BatchVerifyResult');
export const BatchVerifyResponse = z.object({ data: z.array(BatchVerifyResult) }).openapi('BatchVerifyResponse');
