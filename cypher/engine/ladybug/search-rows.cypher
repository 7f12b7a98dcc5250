// Every credential's search row, for the search index (src/search/search-index.ts), which puts
// them in result order itself: sorting 3M rows here needs more than a 1 GB buffer pool. No
// parameters.
MATCH (c:LicenseCredential)
RETURN c.state AS state, c.id AS id, c.sort_key AS sort_key, c.license_number AS license_number,
       c.status_normalized AS status, c.license_type AS license_type, c.f_full AS f_full, c.f_first AS f_first,
       c.f_last AS f_last, c.f_business AS f_business, c.f_city AS f_city
