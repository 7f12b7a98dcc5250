import { canonicalLicenseNumber, credentialId, searchTerms } from '../../domain/identity.js';
import { NotFoundError, SearchIndexBuildingError } from '../../errors.js';
import { namesDesignationsOf, toLicensee } from './licensee-shape.js';
import type { CredentialRecord, ShapeSupervisor, SupervisorRecord } from '../../domain/credential.js';
import type { GraphReads } from '../../graph/reads-port.js';
import type { SearchFilters } from '../../domain/search-filters.js';
import type { SearchIndex } from '../../search/search-port.js';
import type { Licensee } from './licensees.schemas.js';
import type { Clock } from '../../domain/clock.js';
import { createVerifier, type BatchAnswer, type Verification, type VerifyInput } from './verification.js';

/** A search as the service takes it: raw text filters, normalized values, page. */
export interface SearchInput {
  states: string[];
  name?: string;
  first_name?: string;
  last_name?: string;
  business_name?: string;
  city?: string;
  brokerage?: string;
  status?: string;
  license_type?: string;
  page: number;
  per_page: number;
}

export interface LicenseRef {
  state: string;
  license_number: string;
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export const licenceNotFound = (ref: LicenseRef) => new NotFoundError(`no licence ${canonicalLicenseNumber(ref.license_number)} on file in ${ref.state}`);

/**
 * The records of a page's ids in order. An id with none was removed after the index that gave it
 * was read (a write in between): the page is not served short under a total that counts it.
 */
export function pageOf<T>(ids: string[], found: Map<string, T>): T[] {
  const page = ids.map((id) => found.get(id));
  if (page.some((r) => r === undefined)) throw new SearchIndexBuildingError(1, 'a record on this page changed while it was read: retry the search');
  return page as T[];
}

export function createLicenseesService(repo: GraphReads, clock: Clock, index: SearchIndex) {
  const verifier = createVerifier(repo, clock);
  /** Credential records by id (the repository reads each id once); unknown ids are left out. */
  async function records(ids: string[]): Promise<Map<string, CredentialRecord>> {
    return new Map((await repo.byIds(ids)).map((row) => [row.id, row]));
  }

  /**
   * Public Licensee shapes: the credentials with their supervisors in force today and, for the
   * businesses that are their brokerages, those businesses' own (one traversal on Neo4j).
   */
  async function shapes(ids: string[]): Promise<Map<string, { record: CredentialRecord; licensee: Licensee }>> {
    const { records, open } = await repo.shapeSupervisors(ids, namesDesignationsOf);
    const openOf = groupBy(open, (s) => s.affiliate_id);
    const of = (id: string): ShapeSupervisor[] => openOf.get(id) ?? [];
    return new Map(records.map((c) => [c.id, { record: c, licensee: toLicensee(c, of(c.id), of) }]));
  }
  async function hydrate(ids: string[]): Promise<Map<string, Licensee>> {
    return new Map([...(await shapes(ids))].map(([id, s]) => [id, s.licensee]));
  }

  const idOf = (ref: LicenseRef) => credentialId(ref.state, ref.license_number);
  /** One licence's public shape; undefined when it is not on file. */
  async function shapeOf(ref: LicenseRef): Promise<Licensee | undefined> {
    const id = idOf(ref);
    return (await hydrate([id])).get(id);
  }

  /** A page of ids and the exact total, from the search index; the brokerage filter's relationships in force today. */
  const find = async (filters: Omit<SearchFilters, 'today'>, skip: number, limit: number) =>
    filters.states.length === 0 ? { ids: [], total: 0 } : index.search({ ...filters, today: clock.today() }, skip, limit);

  return {
    hydrate,
    records,
    idOf,
    find,

    /** Canonical search; `states` widens it to several jurisdictions (the legacy search). */
    async search(q: SearchInput) {
      const { ids, total } = await find(
        {
          states: q.states,
          nameTerms: searchTerms(q.name ?? ''),
          firstNameTerms: searchTerms(q.first_name ?? ''),
          lastNameTerms: searchTerms(q.last_name ?? ''),
          businessNameTerms: searchTerms(q.business_name ?? ''),
          cityTerms: searchTerms(q.city ?? ''),
          brokerageTerms: searchTerms(q.brokerage ?? ''),
          status: q.status,
          licenseType: q.license_type,
        },
        (q.page - 1) * q.per_page,
        q.per_page,
      );
      return {
        data: pageOf(ids, await hydrate(ids)),
        meta: { total, page: q.page, per_page: q.per_page },
      };
    },

    /**
     * Reads `count` licences spread evenly over every state's listing, `concurrency` at a time, as a
     * verify reads one: the engine's code paths and caches are warm before the first caller (a Neo4j
     * JVM just started shed a second of verifies without it, decision 0029).
     */
    async warmUp(count: number, concurrency = 4) {
      if (count <= 0) return;
      const listing = await index.current();
      const states = (await repo.jurisdictions()).map((j) => j.state);
      const all = { nameTerms: [], firstNameTerms: [], lastNameTerms: [], businessNameTerms: [], cityTerms: [], brokerageTerms: [], today: clock.today() };
      const totals = states.map((s) => listing.search({ ...all, states: [s] }, 0, 0).total);
      const rows = totals.reduce((n, t) => n + t, 0);
      if (rows === 0) return;
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let i = next++; i < count; i = next++) {
            let row = Math.floor((i * rows) / count);
            let s = 0;
            while (row >= totals[s]) row -= totals[s++];
            const [id] = listing.search({ ...all, states: [states[s]] }, row, 1).ids;
            if (id) await shapes([id]);
          }
        }),
      );
    },

    /** One licence verified: the record, and the verdict on it (and on the name, when one is sent). */
    async verify(input: VerifyInput): Promise<Verification> {
      const id = idOf(input);
      const [answer] = await verifier.answer([{ input, found: (await shapes([id])).get(id) }]);
      return answer;
    },

    /** Licences verified together, in input order, each echoing its state and number as sent. */
    async batch(inputs: VerifyInput[]): Promise<BatchAnswer[]> {
      // Items were validated with the same rules as verify, so every one has an id.
      const ids = inputs.map(idOf);
      const found = await shapes(ids);
      const answers = await verifier.answer(inputs.map((input, i) => ({ input, found: found.get(ids[i]) })));
      return inputs.map((input, i) => ({ index: i, state: input.state, license_number: input.license_number, ...answers[i] }));
    },

    async get(ref: LicenseRef): Promise<Licensee> {
      const licensee = await shapeOf(ref);
      if (!licensee) throw licenceNotFound(ref);
      return licensee;
    },

    /** The credential record behind a licence with its supervisors in force today, or 404. */
    async requireSupervised(ref: LicenseRef): Promise<{ record: CredentialRecord; open: SupervisorRecord[] }> {
      const {
        records: [record],
        open,
      } = await repo.withSupervisors([idOf(ref)]);
      if (!record) throw licenceNotFound(ref);
      return { record, open };
    },

    /** The credential record behind a licence, or 404. */
    async require(ref: LicenseRef): Promise<CredentialRecord> {
      const id = idOf(ref);
      const record = (await records([id])).get(id);
      if (!record) throw licenceNotFound(ref);
      return record;
    },
  };
}
export type LicenseesService = ReturnType<typeof createLicenseesService>;
