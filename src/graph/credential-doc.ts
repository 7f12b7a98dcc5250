// LadybugDB's credential document (`doc`): the public fields of a credential as one JSON string,
// so a lookup reads one column instead of thirty. Its writes and the credentials bulk file make
// it from the record; Neo4j reads the properties and stores none. Positional (a JSON array in
// DOC_FIELDS order): without the key names it is half the size, and LadybugDB's ingest and
// checkpoint cost grows with the bytes written (docs/decisions/0008).
import { PUBLISHED_FIELDS, publishedContent } from '../domain/credential.js';
import type { Row } from './graph-port.js';

/** When the record was seen, after what the source published. */
const SEEN_FIELDS = ['snapshot_date', 'last_verified', 'data_source_notes'] as const;
export const DOC_FIELDS = [...PUBLISHED_FIELDS, ...SEEN_FIELDS];

/** The document of a credential record: its published content (publishedContent's text) and when it was seen. */
export const encodeDoc = (record: Row): string =>
  `${publishedContent(record).slice(0, -1)},${SEEN_FIELDS.map((k) => JSON.stringify(record[k] ?? null)).join(',')}]`;

/** The document as a record; data written before the positional form holds objects, read as they are. */
export function decodeDoc<T extends object = Row>(text: string): T {
  const parsed = JSON.parse(text) as unknown[] | T;
  if (!Array.isArray(parsed)) return parsed;
  const doc: Row = {};
  DOC_FIELDS.forEach((k, i) => (doc[k] = parsed[i] ?? null));
  return doc as T;
}
