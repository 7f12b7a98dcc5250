import { z } from 'zod';
import {
  ADDRESS_KINDS,
  AFFILIATE_ROLES,
  ENTITY_TYPES,
  JURISDICTION_STATUSES,
  LICENSE_TYPES,
  REFRESH_FREQUENCIES,
  RELATIONSHIP_COVERAGE_VALUES,
  RELATIONSHIP_TYPES,
  STATUS_FILTER_VALUES,
  normalizeStatus,
} from '../../domain/vocabulary.js';
import { isJurisdictionCode } from '../../domain/jurisdictions.js';
import { canonicalLicenseNumber } from '../../domain/identity.js';
import { isRealDate } from '../../domain/dates.js';

// Row schemas of the canonical import format (docs/importing.md: Canonical import format). Cells arrive as
// strings; every cell is trimmed and a blank or absent one is null before the fields are checked
// (`rowOf`), in one pass: zod transforms per field cost several times the same rules as checks
// (docs/decisions/0008).

/** The record with each of `keys` trimmed, and null where blank or absent. */
function cells(record: unknown, keys: string[]): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const r = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = r[k];
    out[k] = typeof v === 'string' ? v.trim() || null : (v ?? null);
  }
  return out;
}
const rowOf = <T extends z.ZodRawShape>(shape: T) => {
  const keys = Object.keys(shape);
  return z.preprocess((record) => cells(record, keys), z.object(shape));
};

const cell = z.string().nullable();
const required = (what: string) => z.string({ error: `${what} is required` });
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` }).nullable();
const requiredOneOf = <T extends readonly [string, ...string[]]>(what: string, values: T) =>
  z.enum(values, { error: (issue) => (issue.input == null ? `${what} is required` : `must be one of ${values.join(', ')}`) });

const isoDate = cell.refine((v) => v === null || isRealDate(v), 'must be a date YYYY-MM-DD');
const isoTimestamp = cell.refine(
  (v) => v === null || (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v))),
  'must be an ISO 8601 timestamp with zone',
);

const stateCode = required('state')
  .overwrite((v) => v.toUpperCase())
  .refine(isJurisdictionCode, 'is not a U.S. jurisdiction code');
const licenseNumber = (what: string) =>
  required(what)
    .refine((v) => canonicalLicenseNumber(v).length <= 128, `${what} is longer than 128 characters`);

export const JurisdictionRow = rowOf({
  state: stateCode,
  status: oneOf(JURISDICTION_STATUSES).transform((v) => v ?? 'active'),
  refresh_frequency: oneOf(REFRESH_FREQUENCIES),
  relationship_coverage: requiredOneOf('relationship_coverage', RELATIONSHIP_COVERAGE_VALUES),
  relationship_coverage_notes: cell,
  source_id: cell,
  source_name: cell,
  source_url: cell,
  source_format: cell,
});
export type JurisdictionRow = z.infer<typeof JurisdictionRow>;

export const CredentialRow = rowOf({
  state: stateCode,
  license_number: licenseNumber('license_number'),
  license_type: requiredOneOf('license_type', LICENSE_TYPES),
  license_type_display: cell,
  status: required('status'),
  status_normalized: oneOf(STATUS_FILTER_VALUES),
  entity_type: oneOf(ENTITY_TYPES),
  full_name: cell,
  first_name: cell,
  middle_name: cell,
  last_name: cell,
  suffix: cell,
  business_name: cell,
  issue_date: isoDate,
  expiration_date: isoDate,
  address_kind: oneOf(ADDRESS_KINDS),
  address_line1: cell,
  address_line2: cell,
  address_city: cell,
  address_county: cell,
  address_region: cell,
  address_postal_code: cell,
  address_country: cell,
  brokerage_name: cell,
  licensee_key: cell,
  source: required('source'),
  snapshot_date: isoDate,
  last_verified: isoTimestamp,
  notes: cell,
}).transform((row, ctx) => {
  const fromTable = normalizeStatus(row.status);
  if (fromTable && row.status_normalized && row.status_normalized !== fromTable) {
    ctx.addIssue({
      code: 'custom',
      path: ['status_normalized'],
      message: `published status "${row.status}" maps to ${fromTable} in the status table, not ${row.status_normalized}`,
    });
    return z.NEVER;
  }
  const statusNormalized = fromTable ?? row.status_normalized;
  if (!statusNormalized) {
    ctx.addIssue({
      code: 'custom',
      path: ['status'],
      message: `published status "${row.status}" is not in the status table; give status_normalized`,
    });
    return z.NEVER;
  }
  const hasAddress = [row.address_line1, row.address_line2, row.address_city, row.address_postal_code].some(Boolean);
  if (hasAddress && !row.address_kind) {
    ctx.addIssue({ code: 'custom', path: ['address_kind'], message: 'is required when an address is given' });
    return z.NEVER;
  }
  if (!row.full_name && !row.last_name && !row.business_name) {
    ctx.addIssue({ code: 'custom', path: ['full_name'], message: 'a full_name, last_name or business_name is required' });
    return z.NEVER;
  }
  return { ...row, status_normalized: statusNormalized, entity_type: row.entity_type ?? 'person' };
});
export type CredentialRow = z.infer<typeof CredentialRow>;

export const RelationshipRow = rowOf({
  supervisor_state: stateCode,
  supervisor_license_number: licenseNumber('supervisor_license_number'),
  affiliate_state: stateCode,
  affiliate_license_number: licenseNumber('affiliate_license_number'),
  affiliate_role: requiredOneOf('affiliate_role', AFFILIATE_ROLES),
  relationship_type: requiredOneOf('relationship_type', RELATIONSHIP_TYPES),
  effective_from: required('effective_from').refine(isRealDate, 'must be a date YYYY-MM-DD'),
  effective_to: isoDate,
  source: required('source'),
}).superRefine((row, ctx) => {
  if (row.effective_to !== null && row.effective_to <= row.effective_from) {
    ctx.addIssue({ code: 'custom', path: ['effective_to'], message: 'must be after effective_from' });
  }
  if (
    row.supervisor_state === row.affiliate_state &&
    canonicalLicenseNumber(row.supervisor_license_number) === canonicalLicenseNumber(row.affiliate_license_number)
  ) {
    ctx.addIssue({ code: 'custom', path: ['affiliate_license_number'], message: 'a licence cannot supervise itself' });
  }
});
export type RelationshipRow = z.infer<typeof RelationshipRow>;

/**
 * A CSV record the parser skipped, as a reject: its line (`lines` where the parser gave up,
 * relative to the text parsed) and why. An unclosed quote swallows the rest of the text and the
 * parser only knows where it gave up, so that record is reported where it began: the line after
 * the last good one.
 */
export function malformedRecord(err: { message?: string; code?: string; lines?: number } | undefined, lastGoodLine: number) {
  const line = err?.code === 'CSV_QUOTE_NOT_CLOSED' ? lastGoodLine + 1 : Number(err?.lines ?? lastGoodLine + 1);
  return { line, reason: `malformed CSV: ${(err?.message ?? 'unreadable record').replace(/ (at|on) line \d+$/, '')}` };
}

export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
