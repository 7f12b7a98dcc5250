// Credentials by id ($ids): each found one's id and JSON read model, in no particular order. With
// licensees/supervisor-lists-by-ids, the read of two or more credentials (licensees/by-id reads
// one): on LadybugDB at 3M credentials ~20 µs of CPU a key after a fixed ~0.4 ms a query, where
// by-id costs ~0.5 ms a key (most of it the query's own cost, paid per query).
UNWIND $ids AS id
MATCH (c:LicenseCredential {id: id})
RETURN c.id AS id, c.doc AS doc
