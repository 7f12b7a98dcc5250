import { describe, expect, it } from 'vitest';
import { CredentialRow, JurisdictionRow, RelationshipRow, describeIssues } from '../../src/ingest/rows/canonical-rows.js';

const credential = {
  state: ' fl ',
  license_number: ' sl 123 ',
  license_type: 'salesperson',
  license_type_display: '  ',
  status: ' Active ',
  full_name: ' ANA  LOPEZ ',
  last_name: 'LOPEZ',
  source: 'fl-dbpr',
  snapshot_date: '2026-11-01',
};
const relationship = {
  supervisor_state: 'FL',
  supervisor_license_number: 'BK1',
  affiliate_state: 'fl',
  affiliate_license_number: 'SL1',
  affiliate_role: 'salesperson',
  relationship_type: 'employing_broker',
  effective_from: '2024-01-01',
  effective_to: '',
  source: 'fl-dbpr',
};
const reasons = (result: { success: boolean; error?: Parameters<typeof describeIssues>[0] }) => (result.success ? 'valid' : describeIssues(result.error!));

describe('canonical row schemas', () => {
  it('when cells hold spaces or are blank or absent then they are trimmed, blanks and absent ones are null, and state codes are upper-cased', () => {
    const row = CredentialRow.parse(credential);
    expect(row).toMatchObject({ state: 'FL', license_number: 'sl 123', license_type_display: null, status: 'Active', full_name: 'ANA  LOPEZ', address_line2: null, notes: null });
    expect(row.status_normalized).toBe('active');
    expect(row.entity_type).toBe('person');
    expect(RelationshipRow.parse(relationship)).toMatchObject({ affiliate_state: 'FL', effective_to: null });
    expect(JurisdictionRow.parse({ state: 'tx', relationship_coverage: 'source_not_published' })).toMatchObject({ state: 'TX', status: 'active', source_id: null });
  });

  it('when a required value is blank, missing or not in its list then the reason names the column and what is wrong', () => {
    expect(reasons(CredentialRow.safeParse({ ...credential, license_type: ' ' }))).toBe('license_type: license_type is required');
    expect(reasons(CredentialRow.safeParse({ ...credential, license_type: undefined }))).toBe('license_type: license_type is required');
    expect(reasons(CredentialRow.safeParse({ ...credential, license_type: 'wizard' }))).toMatch(/^license_type: must be one of broker, /);
    expect(reasons(CredentialRow.safeParse({ ...credential, state: 'XX' }))).toBe('state: is not a U.S. jurisdiction code');
    expect(reasons(CredentialRow.safeParse({ ...credential, source: '' }))).toBe('source: source is required');
    expect(reasons(CredentialRow.safeParse({ ...credential, entity_type: 'robot' }))).toMatch(/^entity_type: must be one of /);
    expect(reasons(CredentialRow.safeParse({ ...credential, issue_date: '2025-02-30' }))).toBe('issue_date: must be a date YYYY-MM-DD');
    expect(reasons(RelationshipRow.safeParse({ ...relationship, relationship_type: '' }))).toBe('relationship_type: relationship_type is required');
    expect(reasons(RelationshipRow.safeParse({ ...relationship, effective_to: '2023-01-01' }))).toBe('effective_to: must be after effective_from');
    expect(reasons(JurisdictionRow.safeParse({ state: 'TX' }))).toBe('relationship_coverage: relationship_coverage is required');
  });

  it('when the input is not a record then it is refused rather than thrown', () => {
    expect(CredentialRow.safeParse(null).success).toBe(false);
    expect(RelationshipRow.safeParse('FL,1').success).toBe(false);
  });
});
