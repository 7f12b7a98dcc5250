/** Search filters, already folded and split into terms by the service. */
export interface SearchFilters {
  states: string[];
  nameTerms: string[];
  firstNameTerms: string[];
  lastNameTerms: string[];
  businessNameTerms: string[];
  cityTerms: string[];
  /** Each term in the folded names of a brokerage relationship in force on `today`, or of the affiliated brokerage. */
  brokerageTerms: string[];
  /** The day (YYYY-MM-DD) the brokerage filter's relationships are in force on. */
  today: string;
  status?: string;
  licenseType?: string;
  licenseNumberPrefix?: string;
}
