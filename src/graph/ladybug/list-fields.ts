// What the supervision read models hold of each credential and relationship, as a bulk load's
// parser hands it over (ParsedRows): tab-joined fields (bulk-file.ts's entryField). The bulk path
// imports it by its URL (the sink's listFields), in its worker threads too.
import { entryField } from '../bulk-file.js';

/** This module, for BulkSink.listFields. */
export const LIST_FIELDS = import.meta.url;

/** What the lists hold of a credential, its state first. */
export const credentialListFields = (r: Record<string, unknown>) =>
  [r.state, r.sort_key, r.license_number, r.license_type, r.full_name, r.business_name].map(entryField).join('\t');

/** What the lists hold of a relationship. */
export { relationshipListFields } from '../bulk-file.js';
