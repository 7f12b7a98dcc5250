// LadybugDB only: licensees that new credentials hold and no credential on file does, as one COPY
// at the end of the run, before create-holds (see create-links): no key lookup, where
// merge-licensees costs ~13 µs a row. Columns in the table's order: id, entity_type,
// display_name, licensee_key. The refresh passes only ids it knows are not on file.
COPY Licensee
// @from
