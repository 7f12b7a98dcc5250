// LadybugDB only: refresh/create-links.cypher as a COPY into the relationship table (~15x faster
// than UNWIND; a MATCH on a key after LOAD FROM finds nothing in LadybugDB 0.19). The engine puts
// the file at the marker. Columns in the table's order: from (supervisor id), to (affiliate id),
// affiliate_role, relationship_type, effective_from, effective_to, source. Both ends must exist.
COPY SUPERVISES
// @from
