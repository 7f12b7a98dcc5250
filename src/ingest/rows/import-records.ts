import { hash } from 'node:crypto';
import { displayName, nameSortKey, publishedContent } from '../../domain/credential.js';
import { brokerageId, canonicalLicenseNumber, credentialId, fold, licenseeId } from '../../domain/identity.js';
import type { Row } from '../../graph/graph-port.js';
import type { CredentialRow, RelationshipRow } from './canonical-rows.js';

// What an import makes of a canonical row, on every path (upsert, bulk, prepared), and what it reports.

export interface RejectedRow {
  file: string;
  line: number;
  reason: string;
}

export interface ImportSummary {
  folder: string;
  jurisdictions: number;
  credentials: number;
  relationships: number;
  rejected: RejectedRow[];
  demo_records_removed_for: string[];
  elapsed_ms: number;
}

/** The ISO text of the last date asked: an import asks for the same one for every row. */
let lastIso: { date: Date; time: number; iso: string } | undefined;
function isoOf(date: Date): string {
  if (lastIso?.date !== date || lastIso.time !== date.getTime()) lastIso = { date, time: date.getTime(), iso: date.toISOString() };
  return lastIso.iso;
}

export function credentialRecord(row: CredentialRow, importedAt: Date): Row {
  const id = credentialId(row.state, row.license_number);
  const fullName = displayName(row);
  const imported = isoOf(importedAt);
  const snapshot = row.snapshot_date ?? imported.slice(0, 10);
  const notes = [`Source: ${row.source}, snapshot of ${snapshot}`, ...(row.notes ? row.notes.split('|').map((n) => n.trim()).filter(Boolean) : [])];
  const f = (v: string | null) => (v ? fold(v) : null);
  const [fFull, fFirst, fLast, fBusiness] = [f(fullName), f(row.first_name), f(row.last_name), f(row.business_name)];
  const number = canonicalLicenseNumber(row.license_number);
  const record = {
    id,
    state: row.state,
    license_number: number,
    license_number_display: row.license_number.trim(),
    license_type: row.license_type,
    license_type_display: row.license_type_display,
    status: row.status,
    status_normalized: row.status_normalized,
    entity_type: row.entity_type,
    full_name: fullName,
    first_name: row.first_name,
    middle_name: row.middle_name,
    last_name: row.last_name,
    suffix: row.suffix,
    business_name: row.business_name,
    issue_date: row.issue_date,
    expiration_date: row.expiration_date,
    address_kind: row.address_kind,
    address_line1: row.address_line1,
    address_line2: row.address_line2,
    address_city: row.address_city,
    address_county: row.address_county,
    address_region: row.address_kind ? (row.address_region ?? row.state) : row.address_region,
    address_postal_code: row.address_postal_code,
    address_country: row.address_kind ? (row.address_country ?? 'US') : row.address_country,
    source: row.source,
    snapshot_date: snapshot,
    last_verified: row.last_verified ? new Date(row.last_verified).toISOString() : imported,
    data_source_notes: notes,
    f_full: fFull,
    f_first: fFirst,
    f_last: fLast,
    f_business: fBusiness,
    f_city: f(row.address_city),
    sort_key: nameSortKey({ last: fLast, business: fBusiness, full: fFull, first: fFirst, middle: f(row.middle_name) }, number),
    licensee_id: licenseeId(row.licensee_key ? `${row.state}|${row.licensee_key}` : id),
    licensee_key: row.licensee_key,
    display_name: fullName,
    context_brokerage: row.brokerage_name,
  };
  // What the source published, without when: a new snapshot with the same content hashes the
  // same. The other stored columns derive from these, but for the licensee key and the notes.
  const row_hash = hash('sha1', JSON.stringify([publishedContent(record), row.licensee_key, row.notes]), 'base64url');
  return Object.assign(record, { row_hash, left_source_on: null });
}

/** A relationship row as import/upsert-relationships takes it. */
export function relationshipRecord(line: number, row: RelationshipRow) {
  return {
    line,
    supervisor_id: credentialId(row.supervisor_state, row.supervisor_license_number),
    affiliate_id: credentialId(row.affiliate_state, row.affiliate_license_number),
    affiliate_role: row.affiliate_role,
    relationship_type: row.relationship_type,
    effective_from: row.effective_from,
    effective_to: row.effective_to,
    source: row.source,
  };
}

/** The business-name brokerage link of a credential whose source names only a brokerage. */
export function brokerageContext(id: string, state: string, name: string, source: string): Row {
  const f_name = fold(name);
  return { id, state, brokerage_id: brokerageId(state, f_name), brokerage_name: name, f_name, source };
}
