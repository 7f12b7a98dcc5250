/** U.S. licensing jurisdictions: the 50 states, DC and the inhabited territories. */
export const JURISDICTION_NAMES: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas',
  KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts',
  MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico',
  NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma',
  OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota',
  TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia', WA: 'Washington',
  WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming', PR: 'Puerto Rico', VI: 'U.S. Virgin Islands',
  GU: 'Guam', AS: 'American Samoa', MP: 'Northern Mariana Islands',
};

export function isJurisdictionCode(code: string): boolean {
  return Object.hasOwn(JURISDICTION_NAMES, code);
}

/** A jurisdiction as the graph holds it: its counts and the source that feeds it. */
export interface JurisdictionRecord {
  state: string;
  name: string | null;
  status: string | null;
  refresh_frequency: string | null;
  record_count: number | null;
  active_record_count: number | null;
  last_updated: string | null;
  relationship_coverage: string;
  relationship_coverage_notes: string | null;
  source_id: string | null;
  source_name: string | null;
  source_url: string | null;
  source_format: string | null;
  source_last_import_at: string | null;
  source_last_import_rows: number | null;
  source_last_snapshot_date: string | null;
  source_last_run: string | null;
}
