// What the supervision read models hold of each credential and relationship, as a bulk load's
// parser hands it over (ParsedRows): tab-joined fields, tabs and line breaks in a field made
// spaces, since tabs part an entry's fields and line breaks its entries. The bulk path imports it
// by its URL (the sink's listFields), in its worker threads too.

/** This module, for BulkSink.listFields. */
export const LIST_FIELDS = import.meta.url;

export const ENTRY_BREAKS = /[\t\n\r]/g;

/** A field of an entry: tabs and line breaks made spaces, null empty. */
export const entryField = (v: unknown) => (v == null ? '' : String(v).replace(ENTRY_BREAKS, ' '));

/** What the lists hold of a credential, its state first. */
export const credentialListFields = (r: Record<string, unknown>) =>
  [r.state, r.sort_key, r.license_number, r.license_type, r.full_name, r.business_name].map(entryField).join('\t');

/** What the lists hold of a relationship. */
export const relationshipListFields = (r: Record<string, unknown>) =>
  [r.relationship_type, r.effective_from, r.affiliate_role, r.effective_to].map(entryField).join('\t');
