// What the importer files keep of the bulk path's parsed rows (import-files.ts, ParsedRows): a
// relationship's fields, tab-joined, for its in-force relationships; nothing of a credential.
// The bulk path imports it by its URL (the sink's listFields), in its worker threads too.

/** This module, for BulkSink.listFields. */
export const LIST_FIELDS = import.meta.url;

export const credentialListFields = () => '';

/** The fields import-files.ts reads back, in its order. */
export { relationshipListFields } from '../bulk-file.js';
