import { canonicalLicenseNumber, searchTerms } from '../../domain/identity.js';
import { publicAddress } from '../licensees/licensee-shape.js';
import type { CredentialRecord } from '../../domain/credential.js';
import type { GraphReads } from '../../graph/reads-port.js';
import { pageOf, type LicenseRef, type LicenseesService } from '../licensees/licensees.service.js';

/** The lower-level normalized licence shape of the /licenses operations. */
export const rawLicense = (c: CredentialRecord) => ({
  id: c.id,
  state: c.state,
  license_number: c.license_number,
  license_number_display: c.license_number_display,
  license_type_normalized: c.license_type,
  license_type_display: c.license_type_display,
  status: c.status,
  status_normalized: c.status_normalized,
  entity_type: c.entity_type,
  full_name: c.full_name,
  first_name: c.first_name,
  middle_name: c.middle_name,
  last_name: c.last_name,
  suffix: c.suffix,
  business_name: c.business_name,
  issue_date: c.issue_date,
  expiration_date: c.expiration_date,
  address: publicAddress(c) ?? null,
  source: c.source,
  snapshot_date: c.snapshot_date,
  last_verified: c.last_verified,
});


export interface RawSearch {
  state: string;
  name?: string;
  license_number?: string;
  status?: string;
  license_type?: string;
  page: number;
  per_page: number;
}

export function createLegacyService(repo: GraphReads, licensees: LicenseesService) {
  return {
    async searchRaw(q: RawSearch) {
      const { ids, total } = await licensees.find(
        {
          states: [q.state],
          nameTerms: searchTerms(q.name ?? ''),
          firstNameTerms: [],
          lastNameTerms: [],
          businessNameTerms: [],
          cityTerms: [],
          brokerageTerms: [],
          status: q.status,
          licenseType: q.license_type,
          licenseNumberPrefix: q.license_number ? canonicalLicenseNumber(q.license_number) : undefined,
        },
        (q.page - 1) * q.per_page,
        q.per_page,
      );
      return {
        data: pageOf(ids, await licensees.records(ids)).map(rawLicense),
        meta: { total, page: q.page, per_page: q.per_page },
      };
    },

    async getRaw(ref: LicenseRef) {
      return rawLicense(await licensees.require(ref));
    },

    typeCounts: (states: string[]) => repo.typeCounts(states),
  };
}
export type LegacyService = ReturnType<typeof createLegacyService>;
