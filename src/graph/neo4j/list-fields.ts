// What the importer files keep of the bulk path's parsed rows (import-files.ts, ParsedRows): a
// credential's search row, which the files' search rows take as it is and whose state, sort key and
// names the in-force keys, the roster and the brokerage rows read; a relationship's fields,
// tab-joined. The bulk path imports it by its URL (the sink's listFields), in its worker threads too.
import { csvRow } from '../bulk-file.js';
import { SEARCH_INDEX_COLUMNS } from '../search-source-port.js';

/** This module, for BulkSink.listFields. */
export const LIST_FIELDS = import.meta.url;

/** The record's field of each search row column: the status a reader sees is the normalized one (a new store has none pending). */
const SEARCH_FROM = SEARCH_INDEX_COLUMNS.map((c) => (c === 'status' ? 'status_normalized' : c));

/** The credential's search row (SEARCH_INDEX_COLUMNS), as a line of the bulk dialect. */
export const credentialListFields = (r: Record<string, unknown>) => csvRow(SEARCH_FROM, r);

/** Neo4j reads a credential's fields: its files carry no JSON document (import-files.ts ignores the column). */
export const credentialDocs = false;

/** Its importer maps integer keys at a fraction of what it spends on string ids (import-files.ts). */
export const importKeys = true;

/** The fields import-files.ts reads back, in its order. */
export { relationshipListFields } from '../bulk-file.js';
