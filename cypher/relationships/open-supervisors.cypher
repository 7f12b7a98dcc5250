// Supervising relationships in force on $today (ISO date) of the credential $id, with the
// supervisor's JSON read model. One row per relationship, unordered (sorting here costs more
// than sorting the few rows in the caller). One credential per query: after UNWIND $ids,
// LadybugDB joins the pattern through the whole SUPERVISES table (110 ms at 100k credentials,
// against 2 ms for one key), so callers run one query per credential, side by side.
MATCH (s:LicenseCredential)-[r:SUPERVISES]->(c:LicenseCredential {id: $id})
WHERE r.effective_from <= date($today) AND (r.effective_to IS NULL OR r.effective_to > date($today))
RETURN c.id AS affiliate_id, s.doc AS doc, r.affiliate_role AS affiliate_role,
       r.relationship_type AS relationship_type, r.effective_from AS effective_from,
       r.effective_to AS effective_to
