// What a verification answer tells the caller to do: one verdict and the reasons behind it.
// The table below is the rule; docs/verdicts.md explains it and the OpenAPI document lists it.
import type { NameMatchResult } from './name-match.js';
import { REFRESH_FREQUENCIES, statusTableKey } from './vocabulary.js';

export const VERDICTS = ['clear', 'consider', 'not_found'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** `consider`: a found licence with this reason needs a person's look; `note`: told, verdict unchanged. */
type Effect = 'consider' | 'note';

/** Every reason an answer can give, with its effect and meaning, in the order answers list them. */
export const REASON_RULES = {
  not_covered: { effect: 'note', meaning: 'A real jurisdiction whose licences this service does not hold: a miss says nothing.' },
  partial_source: { effect: 'note', meaning: 'The source publishes only some licences or fields (active licences only, no status or dates): a miss is not proof that no licence exists.' },
  expired: { effect: 'consider', meaning: 'The status is an expired or delinquent one, or the published expiration date has passed.' },
  inactive: { effect: 'consider', meaning: 'The status is inactive (including surrendered, relinquished, cancelled, retired, deceased or deleted).' },
  suspended: { effect: 'consider', meaning: 'The status is a suspension.' },
  revoked: { effect: 'consider', meaning: 'The licence was revoked.' },
  probation: { effect: 'consider', meaning: 'The licence is on probation (active or not).' },
  no_current_supervisor: { effect: 'consider', meaning: 'An active licence of a type that must practise under a broker or supervisor has none in force, where the source publishes supervision in full.' },
  name_mismatch: { effect: 'consider', meaning: 'The name sent is not the licence holder\'s.' },
  name_close: { effect: 'note', meaning: 'The name sent is the holder\'s written differently (nickname, initial, missing middle name, a typing slip).' },
  source_stale: { effect: 'consider', meaning: 'The state\'s last successful refresh is older than twice its stated refresh frequency.' },
} as const satisfies Record<string, { effect: Effect; meaning: string }>;
export type Reason = keyof typeof REASON_RULES;
export const REASONS = Object.keys(REASON_RULES) as Reason[];

/** Reasons a published status gives, by its folded form (statusTableKey), where the normalized class alone does not say. */
const STATUS_REASONS: Readonly<Record<string, Reason[]>> = {
  probation: ['probation'],
  'probation active': ['probation'],
  'probation inactive': ['probation', 'inactive'],
  revoked: ['revoked'],
};
/** Reasons of each normalized status class (vocabulary.STATUS_TABLE). */
const CLASS_REASONS: Readonly<Record<string, Reason[]>> = { active: [], inactive: ['inactive'], expired: ['expired'], suspended: ['suspended'] };

/** Licence types that practise only under a broker or supervising licensee. */
export const SUPERVISED_LICENSE_TYPES: readonly string[] = ['salesperson', 'broker_associate', 'apprentice_inspector', 'real_estate_inspector'];

/** Sources that publish only part of their licences or fields, by source id (see REASON_RULES.partial_source). */
export const PARTIAL_SOURCES: Readonly<Record<string, string>> = {
  'ca-dre': 'CurrList lists current licences only.',
  'ct-dcp': 'Active salespersons only, with their broker; no status, dates or addresses.',
  'ny-dos': 'Active licences only, no status column.',
};

const DAYS_BY_FREQUENCY: Readonly<Record<(typeof REFRESH_FREQUENCIES)[number], number | null>> = {
  daily: 1, nightly: 1, weekly: 7, monthly: 31, quarterly: 92, irregular: null,
};
const DAY_MS = 86_400_000;

/** The days between a source's stated refreshes; null for an irregular (or unknown) frequency. */
export const refreshDays = (frequency: string | null): number | null => DAYS_BY_FREQUENCY[frequency as keyof typeof DAYS_BY_FREQUENCY] ?? null;

export interface SourceFreshness {
  /** The last successful refresh or import; null before the first. */
  refreshed_at: string | null;
  /** Whole days since then. */
  age_days: number | null;
  /** When it turns (or turned) stale: refreshed_at plus twice the stated frequency; null for an irregular source. */
  stale_after: string | null;
  stale: boolean;
}

/**
 * The freshness rule (the verdicts' `source_stale`, and any metric or alert of it): a source is
 * stale once its last successful refresh is older than twice its stated refresh frequency; an
 * irregular one never is.
 */
export function sourceFreshness(refreshedAt: string | null, frequency: string | null, now: Date): SourceFreshness {
  const at = refreshedAt ? Date.parse(refreshedAt) : NaN;
  const days = refreshDays(frequency);
  if (Number.isNaN(at)) return { refreshed_at: null, age_days: null, stale_after: null, stale: false };
  const staleAfter = days === null ? null : at + 2 * days * DAY_MS;
  return {
    refreshed_at: new Date(at).toISOString(),
    age_days: Math.max(0, Math.floor((now.getTime() - at) / DAY_MS)),
    stale_after: staleAfter === null ? null : new Date(staleAfter).toISOString(),
    stale: staleAfter !== null && now.getTime() > staleAfter,
  };
}

/** What a verdict is decided from. */
export interface VerdictInput {
  /** The jurisdiction has licences on file here. */
  covered: boolean;
  /** The source id of the jurisdiction (PARTIAL_SOURCES). */
  source: string | null;
  stale: boolean;
  /** The licence found; undefined on a miss. */
  licence?: {
    status: string | null;
    status_normalized: string | null;
    expiration_date: string | null;
    license_type: string | null;
    /** No supervisor is in force and the source publishes this licence's supervision in full. */
    unsupervisedByTheSource: boolean;
  };
  /** The name match's result, when a name was sent. */
  name?: NameMatchResult;
}

/** The verdict and its reasons (each once, in REASON_RULES order) for one answer on `today` (YYYY-MM-DD). */
export function decideVerdict(input: VerdictInput, today: string): { verdict: Verdict; reasons: Reason[] } {
  const found = new Set<Reason>();
  if (!input.covered) found.add('not_covered');
  if (input.source && Object.hasOwn(PARTIAL_SOURCES, input.source)) found.add('partial_source');
  if (input.stale) found.add('source_stale');
  const l = input.licence;
  if (l) {
    const statusReasons = STATUS_REASONS[statusTableKey(l.status ?? '')] ?? CLASS_REASONS[l.status_normalized ?? ''] ?? [];
    statusReasons.forEach((r) => found.add(r));
    if (l.expiration_date && l.expiration_date < today) found.add('expired');
    const active = !statusReasons.length || (statusReasons.length === 1 && statusReasons[0] === 'probation');
    if (active && l.unsupervisedByTheSource && SUPERVISED_LICENSE_TYPES.includes(l.license_type ?? '')) found.add('no_current_supervisor');
    if (input.name === 'mismatch') found.add('name_mismatch');
    if (input.name === 'close') found.add('name_close');
  }
  const reasons = REASONS.filter((r) => found.has(r));
  if (!l) return { verdict: 'not_found', reasons };
  return { verdict: reasons.some((r) => REASON_RULES[r].effect === 'consider') ? 'consider' : 'clear', reasons };
}
