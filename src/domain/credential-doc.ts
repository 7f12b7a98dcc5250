// The credential read model (`doc`): the public fields of a credential as one JSON string, written
// at import so a lookup returns one column instead of thirty. Stored positionally (a JSON array
// in DOC_FIELDS order): without the key names it is half the size, and LadybugDB's ingest and
// checkpoint cost grows with the bytes written (docs/decisions/0008).

/** What the source published, in the array's order; then when it was seen (DOC_SEEN_FIELDS). */
export const DOC_CONTENT_FIELDS = [
  'context_brokerage', 'id', 'state', 'license_number', 'license_number_display', 'license_type', 'license_type_display',
  'status', 'status_normalized', 'entity_type', 'full_name', 'first_name', 'middle_name', 'last_name', 'suffix',
  'business_name', 'issue_date', 'expiration_date', 'address_kind', 'address_line1', 'address_line2', 'address_city',
  'address_county', 'address_region', 'address_postal_code', 'address_country', 'source',
] as const;
export const DOC_SEEN_FIELDS = ['snapshot_date', 'last_verified', 'data_source_notes'] as const;
export const DOC_FIELDS = [...DOC_CONTENT_FIELDS, ...DOC_SEEN_FIELDS];

// Typed by its readers, as JSON.parse would be.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CredentialDoc = Record<string, any>;

/** The published part alone: equal texts mean the source published the same record. */
export const docContent = (values: Record<string, unknown>): string => JSON.stringify(DOC_CONTENT_FIELDS.map((k) => values[k] ?? null));

/** The doc from its published part (docContent's text) and when it was seen. */
export const docFromContent = (content: string, seen: Partial<Record<(typeof DOC_SEEN_FIELDS)[number], unknown>>): string =>
  `${content.slice(0, -1)},${DOC_SEEN_FIELDS.map((k) => JSON.stringify(seen[k] ?? null)).join(',')}]`;

export const encodeDoc = (doc: CredentialDoc): string => docFromContent(docContent(doc), doc);

/** The doc as an object; data written before the positional form holds objects, read as they are. */
export function decodeDoc<T extends object = CredentialDoc>(text: string): T {
  const parsed = JSON.parse(text) as unknown[] | T;
  if (!Array.isArray(parsed)) return parsed;
  const doc: CredentialDoc = {};
  DOC_FIELDS.forEach((k, i) => (doc[k] = parsed[i] ?? null));
  return doc as T;
}
