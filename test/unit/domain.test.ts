import { describe, expect, it } from 'vitest';
import { isRealDate } from '../../src/domain/dates.js';
import { canonicalLicenseNumber, credentialId, fold, licenseeId, searchTerms } from '../../src/domain/identity.js';
import { STATUS_FILTER_VALUES, STATUS_TABLE, normalizeStatus } from '../../src/domain/vocabulary.js';

describe('licence numbers and ids', () => {
  it('when a number is canonicalized then it is trimmed, upper-cased and inner spaces removed, zeros and suffixes kept', () => {
    expect(canonicalLicenseNumber(' 763827-sa ')).toBe('763827-SA');
    expect(canonicalLicenseNumber('0005 5592')).toBe('00055592');
    expect(canonicalLicenseNumber('30au\t0537489')).toBe('30AU0537489');
  });

  it('when the id of a credential is computed then it is the same for any spelling and fixed across releases', () => {
    expect(credentialId('tx', ' 763827-sa')).toBe(credentialId('TX', '763827-SA'));
    // Pinned: ids must not change between imports, engines or versions.
    expect(credentialId('TX', '763827-SA')).toBe('86d53935-39cc-5aac-b6b0-6f0210b16917');
    // Non-ASCII names hash as UTF-8 (the value the uuid package gives).
    expect(licenseeId('NY|é ü')).toBe('4f4367ad-e6fa-5916-bf31-1af267bc8a2d');
    // A long name (400 bytes), after a short one and before it again: ids do not leak into each other.
    expect(licenseeId(`TX|${'ü'.repeat(200)}`)).toBe('c02ff51b-0d16-56e5-b0f9-58a7c509b1eb');
    expect(licenseeId('NY|é ü')).toBe('4f4367ad-e6fa-5916-bf31-1af267bc8a2d');
    expect(credentialId('CA', '01234567')).not.toBe(credentialId('FL', '01234567'));
  });
});

describe('folding for search', () => {
  it('when text has accents, case and extra spaces then the folded form drops them', () => {
    expect(fold('  José  ÁLVARO Muñoz ')).toBe('jose alvaro munoz');
    expect(fold('Zoë Brontë')).toBe('zoe bronte');
    expect(fold(' SMITH  &  Co. ')).toBe('smith & co.');
    expect(fold('tab\there')).toBe('tab here');
    expect(searchTerms(' MUÑOZ   josé ')).toEqual(['munoz', 'jose']);
    expect(searchTerms('   ')).toEqual([]);
  });
});

describe('status table', () => {
  it('when published statuses are normalized then each maps to exactly one filter value', () => {
    expect(normalizeStatus('Probation - Active')).toBe('active');
    expect(normalizeStatus('Expired less than 6 months')).toBe('expired');
    expect(normalizeStatus('DELINQUENT')).toBe('expired');
    expect(normalizeStatus('Invol Inactive')).toBe('inactive');
    expect(normalizeStatus('Current, Active')).toBe('active');
    expect(normalizeStatus('Current, Inactive')).toBe('inactive');
    for (const s of ['Revoked', 'Surrendered', 'Deceased', 'Deleted', 'Relinquished']) expect(normalizeStatus(s)).toBe('inactive');
    expect(normalizeStatus('Suspended')).toBe('suspended');
    expect(normalizeStatus('Something new')).toBeUndefined();
    expect(new Set(Object.values(STATUS_TABLE))).toEqual(new Set(STATUS_FILTER_VALUES));
  });
});

describe('dates', () => {
  it('when a date is checked then only YYYY-MM-DD days that exist pass', () => {
    expect(isRealDate('2024-02-29')).toBe(true);
    expect(isRealDate('2025-02-29')).toBe(false);
    expect(isRealDate('2025-04-31')).toBe(false);
    expect(isRealDate('2025-4-1')).toBe(false);
    expect(isRealDate('2025-04-01T00:00:00Z')).toBe(false);
    expect(isRealDate('2000-02-29')).toBe(true); // divisible by 400
    expect(isRealDate('1900-02-29')).toBe(false); // by 100 only
    expect(isRealDate('2025-13-01')).toBe(false);
    expect(isRealDate('2025-00-10')).toBe(false);
    expect(isRealDate('2025-01-00')).toBe(false);
    expect(isRealDate('2025-12-31')).toBe(true);
  });
});

describe('supervision rules', () => {
  it('when roster changes are ordered then it is by licence number and id by code unit, as Cypher orders them, then type, start and role', async () => {
    const { byRosterChange } = await import('../../src/domain/credential.js');
    const c = (license_number: string, relationship_type: string, effective_from: string, affiliate_role = 'salesperson') => ({ id: `TX|${license_number}`, license_number, relationship_type, effective_from, affiliate_role });
    // Upper case before lower case (a locale's collation puts 'a3' first).
    const sorted = [c('B2', 'sponsoring_broker', '2026-01-01'), c('a3', 'sponsoring_broker', '2026-02-01'), c('a3', 'sponsoring_broker', '2026-03-01'), c('a3', 'supervising_broker', '2025-01-01'), c('b1', 'sponsoring_broker', '2026-01-01')];
    expect([...sorted].reverse().sort(byRosterChange)).toEqual(sorted);
  });

  it('when supervision entries are ordered then it is by supervisor, role, type, start and end, an empty role or absent end first, on every engine', async () => {
    const { bySupervisionEntry } = await import('../../src/domain/credential.js');
    const e = (supervisor_id: string, affiliate_role: string, relationship_type: string, effective_from: string, effective_to: string | null) => ({ supervisor_id, affiliate_role, relationship_type, effective_from, effective_to });
    const sorted = [
      e('a', '', 'sponsoring_broker', '2020-01-01', null),
      e('a', 'salesperson', 'sponsoring_broker', '2020-01-01', '2021-01-01'),
      e('a', 'salesperson', 'sponsoring_broker', '2021-01-01', null),
      e('a', 'salesperson', 'supervising_broker', '2019-01-01', null),
      e('b', '', 'sponsoring_broker', '2018-01-01', null),
    ];
    expect([...sorted].reverse().sort(bySupervisionEntry)).toEqual(sorted);
  });

  it('when relationships are filtered by role and type then each filter given must match and an absent one matches any', async () => {
    const { matchesEdge } = await import('../../src/domain/credential.js');
    const r = { affiliate_role: 'salesperson', relationship_type: 'sponsoring_broker' };
    expect(matchesEdge(r, {})).toBe(true);
    expect(matchesEdge(r, { affiliate_role: 'salesperson' })).toBe(true);
    expect(matchesEdge(r, { affiliate_role: 'salesperson', relationship_type: 'supervising_broker' })).toBe(false);
    expect(matchesEdge({ ...r, affiliate_role: null }, { affiliate_role: 'salesperson' })).toBe(false);
  });
});
