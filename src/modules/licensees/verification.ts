import type { Clock } from '../../domain/clock.js';
import type { CredentialRecord } from '../../domain/credential.js';
import type { JurisdictionRecord } from '../../domain/jurisdictions.js';
import { matchName, type NameMatch, type NameQuery } from '../../domain/name-match.js';
import { decideVerdict, sourceFreshness, type Reason, type SourceFreshness, type Verdict } from '../../domain/verdict.js';
import type { GraphReads } from '../../graph/reads-port.js';
import type { Licensee } from './licensees.schemas.js';

/** A verify request: a licence and, optionally, the name of who presents it. */
export interface VerifyInput extends NameQuery {
  state: string;
  license_number: string;
}

export interface VerificationSource extends SourceFreshness {
  id: string | null;
  name: string | null;
  refresh_frequency: string | null;
  snapshot_date: string | null;
}

/** One verification answer: the record found (or null) and what to make of it. */
export interface Verification {
  verified: boolean;
  licensee: Licensee | null;
  verdict: Verdict;
  reasons: Reason[];
  name_match: NameMatch | null;
  source: VerificationSource | null;
}

/** One item of a batch answered: its place in the request, its licence as sent, and its verification. */
export interface BatchAnswer extends Verification {
  index: number;
  state: string;
  license_number: string;
}

/** One licence an answer covered, as the verification log records it: what was asked and what was answered. */
export interface AnsweredItem {
  /** Position in a batch or a roster; null for a single verify. */
  index: number | null;
  asked: VerifyInput;
  answer: Verification;
}

// Jurisdictions change only when a refresh publishes (minutes apart); answers may lag one by this much.
const JURISDICTIONS_TTL_MS = 5_000;

export const hasName = (q: NameQuery) => Boolean(q.name || q.first_name || q.last_name);

/** The name a request sent, as the verification log and a job's results show it: `name`, or `first_name` and `last_name`; null for none. */
export const nameSent = (q: NameQuery): NameQuery | null =>
  q.name ? { name: q.name } : q.first_name || q.last_name ? { first_name: q.first_name, last_name: q.last_name } : null;

/** Verdicts for found and missed licences, from the jurisdictions' coverage and freshness. */
export function createVerifier(repo: Pick<GraphReads, 'jurisdictions'>, clock: Clock) {
  let cached: { at: number; byState: Promise<Map<string, JurisdictionRecord>> } | undefined;
  function jurisdictions(): Promise<Map<string, JurisdictionRecord>> {
    const at = performance.now();
    if (!cached || at - cached.at > JURISDICTIONS_TTL_MS) {
      const byState = repo.jurisdictions().then((all) => new Map(all.map((j) => [j.state, j])));
      cached = { at, byState };
      byState.catch(() => (cached = undefined));
    }
    return cached.byState;
  }

  function sourceOf(j: JurisdictionRecord | undefined, now: Date): VerificationSource | null {
    if (!j?.source_id) return null;
    return {
      id: j.source_id,
      name: j.source_name,
      refresh_frequency: j.refresh_frequency,
      snapshot_date: j.source_last_snapshot_date,
      ...sourceFreshness(j.source_last_import_at ?? j.last_updated, j.refresh_frequency, now),
    };
  }

  return {
    /** Answers for `inputs`, each with the record found for it (undefined on a miss). */
    async answer(inputs: { input: VerifyInput; found?: { record: CredentialRecord; licensee: Licensee } }[]): Promise<Verification[]> {
      const byState = await jurisdictions();
      const now = clock.now();
      const today = clock.today();
      return inputs.map(({ input, found }) => {
        const j = byState.get(input.state.toUpperCase());
        const source = sourceOf(j, now);
        const nameMatch = found && hasName(input) ? matchName(input, found.licensee) : null;
        const covered = Boolean(j && (j.status ?? 'active') !== 'planned' && (j.record_count ?? 0) > 0);
        const { verdict, reasons } = decideVerdict(
          {
            covered,
            source: j?.source_id ?? null,
            stale: source?.stale ?? false,
            licence: found && {
              status: found.record.status,
              status_normalized: found.record.status_normalized,
              expiration_date: found.record.expiration_date,
              license_type: found.record.license_type,
              unsupervisedByTheSource: found.licensee.supervision_empty_reason === 'authoritative_absence',
            },
            name: nameMatch?.result,
          },
          today,
        );
        return { verified: Boolean(found), licensee: found?.licensee ?? null, verdict, reasons, name_match: nameMatch, source };
      });
    },
  };
}
export type Verifier = ReturnType<typeof createVerifier>;
