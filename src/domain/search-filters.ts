/** Search filters, already folded and split into terms by the service. */
export interface SearchFilters {
  states: string[];
  nameTerms: string[];
  firstNameTerms: string[];
  lastNameTerms: string[];
  businessNameTerms: string[];
  cityTerms: string[];
  brokerageTerms: string[];
  brokerageTypes: readonly string[];
  status?: string;
  licenseType?: string;
  licenseNumberPrefix?: string;
}
