import { describe, expect, it } from 'vitest';
import { PARTIAL_SOURCES, REASONS, REASON_RULES, decideVerdict, sourceFreshness } from '../../src/domain/verdict.js';
import { REFRESH_FREQUENCIES, STATUS_TABLE } from '../../src/domain/vocabulary.js';
import { SOURCES } from '../../src/domain/sources.js';

const TODAY = '2026-11-27';
const licence = (status: string, extra: Partial<{ expiration_date: string; license_type: string; unsupervisedByTheSource: boolean }> = {}) => ({
  status,
  status_normalized: STATUS_TABLE[status] ?? null,
  expiration_date: extra.expiration_date ?? '2027-01-31',
  license_type: extra.license_type ?? 'broker',
  unsupervisedByTheSource: extra.unsupervisedByTheSource ?? false,
});
const decide = (l: ReturnType<typeof licence> | undefined, more: Partial<Parameters<typeof decideVerdict>[0]> = {}) =>
  decideVerdict({ covered: true, source: 'tx-trec', stale: false, licence: l, ...more }, TODAY);

describe('the verdict table', () => {
  it('when every published status the import knows is verified then its class decides the reasons', () => {
    const byClass: Record<string, string[]> = { active: [], inactive: ['inactive'], expired: ['expired'], suspended: ['suspended'] };
    const special: Record<string, string[]> = { probation: ['probation'], 'probation active': ['probation'], 'probation inactive': ['inactive', 'probation'], revoked: ['revoked'] };
    for (const [status, cls] of Object.entries(STATUS_TABLE)) {
      const want = special[status] ?? byClass[cls];
      expect({ status, ...decide(licence(status)) }).toEqual({ status, verdict: want.length ? 'consider' : 'clear', reasons: want });
    }
  });

  it('when the expiration date has passed then the licence is expired whatever its status says', () => {
    expect(decide(licence('active', { expiration_date: '2026-11-26' }))).toEqual({ verdict: 'consider', reasons: ['expired'] });
    expect(decide(licence('active', { expiration_date: TODAY }))).toEqual({ verdict: 'clear', reasons: [] });
  });

  it('when an active licence of a supervised type has no supervisor where the source publishes them all then it is no_current_supervisor', () => {
    for (const type of ['salesperson', 'broker_associate', 'apprentice_inspector', 'real_estate_inspector']) {
      expect(decide(licence('active', { license_type: type, unsupervisedByTheSource: true })).reasons).toEqual(['no_current_supervisor']);
    }
    expect(decide(licence('probation active', { license_type: 'salesperson', unsupervisedByTheSource: true })).reasons).toEqual(['probation', 'no_current_supervisor']);
    expect(decide(licence('active', { license_type: 'broker', unsupervisedByTheSource: true })).reasons).toEqual([]);
    expect(decide(licence('inactive', { license_type: 'salesperson', unsupervisedByTheSource: true })).reasons).toEqual(['inactive']);
    expect(decide(licence('active', { license_type: 'salesperson', unsupervisedByTheSource: false })).reasons).toEqual([]);
  });

  it('when the name, the source and coverage add reasons then notes leave the verdict and consider reasons change it', () => {
    expect(decide(licence('active'), { name: 'exact' })).toEqual({ verdict: 'clear', reasons: [] });
    expect(decide(licence('active'), { name: 'close' })).toEqual({ verdict: 'clear', reasons: ['name_close'] });
    expect(decide(licence('active'), { name: 'mismatch' })).toEqual({ verdict: 'consider', reasons: ['name_mismatch'] });
    expect(decide(licence('active'), { stale: true })).toEqual({ verdict: 'consider', reasons: ['source_stale'] });
    expect(decide(licence('active'), { source: 'ny-dos' })).toEqual({ verdict: 'clear', reasons: ['partial_source'] });
    expect(decide(undefined, { name: 'mismatch' })).toEqual({ verdict: 'not_found', reasons: [] });
    expect(decide(undefined, { covered: false, source: null })).toEqual({ verdict: 'not_found', reasons: ['not_covered'] });
    expect(decide(undefined, { source: 'ct-dcp', stale: true })).toEqual({ verdict: 'not_found', reasons: ['partial_source', 'source_stale'] });
    expect(decide(licence('suspended'), { name: 'close', stale: true, source: 'ca-dre' })).toEqual({ verdict: 'consider', reasons: ['partial_source', 'suspended', 'name_close', 'source_stale'] });
  });

  it('when the table is read then every reason has an effect and a meaning, and every partial source is a configured one', () => {
    for (const r of REASONS) expect(REASON_RULES[r].meaning.length).toBeGreaterThan(20);
    for (const id of Object.keys(PARTIAL_SOURCES)) expect(SOURCES[id]).toBeDefined();
  });
});

describe('the freshness rule', () => {
  const at = '2026-11-20T06:00:00.000Z';
  const now = (days: number) => new Date(Date.parse(at) + days * 86_400_000);
  it('when a source is past twice its stated frequency then it is stale, and not a moment before', () => {
    const periods: Record<string, number> = { daily: 1, nightly: 1, weekly: 7, monthly: 31, quarterly: 92 };
    for (const f of REFRESH_FREQUENCIES.filter((f) => f !== 'irregular')) {
      const edge = now(2 * periods[f]);
      expect(sourceFreshness(at, f, edge)).toMatchObject({ stale: false, stale_after: edge.toISOString(), age_days: 2 * periods[f] });
      expect(sourceFreshness(at, f, new Date(edge.getTime() + 1)).stale).toBe(true);
    }
  });
  it('when a source is irregular or never refreshed then it is never stale, and its age is still told', () => {
    expect(sourceFreshness(at, 'irregular', now(4000))).toEqual({ refreshed_at: at, age_days: 4000, stale_after: null, stale: false });
    expect(sourceFreshness(null, 'nightly', now(1))).toEqual({ refreshed_at: null, age_days: null, stale_after: null, stale: false });
  });
});
