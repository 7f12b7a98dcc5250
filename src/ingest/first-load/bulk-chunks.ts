// The bulk import's chunk layouts, shared by the thread that loads the bulk files (bulk-import.ts)
// and the one that parses the chunks (bulk-import-worker.ts).
import { hash } from 'node:crypto';
import type { Row } from '../../graph/graph-port.js';
import type { BulkText } from '../../graph/bulk-file.js';

export interface ChunkJob {
  seq: number;
  kind: 'credentials' | 'relationships';
  header: string[];
  text: string;
  /** File line of the chunk's first line. */
  firstLine: number;
  /** Lines of rows to leave out (a chunk run again without its duplicates). */
  skip?: number[];
  /** Lines of rows whose details to return, for their rejects or repeats. */
  detail?: number[];
}
export interface ChunkResult {
  seq: number;
  rejects: { line: number; reason: string }[];
}
/**
 * A chunk of credentials as bulk-file text, with each row's id, label and line (in the texts'
 * order) for the main thread's duplicate check: rows cross to it as a few strings, not objects.
 */
export interface CredentialChunk extends ChunkResult {
  ids: string[];
  /** Per id: what the read models hold of it (credentialListFields). */
  listFields: string[];
  lines: number[];
  /** Of the job's `detail` lines: state and licence number, for a duplicate's reject. */
  details: { line: number; label: string }[];
  credentials: BulkText;
  /** Licensees of rows without a licensee key (one per credential). */
  licensees: BulkText;
  jurisdictions: BulkText;
  holds: BulkText;
  /** Licensees from a licensee_key, as [id, line, the credential's importKey]: several credentials may share one. */
  keyed: [string, string, number][];
  /** Business-name brokerage links. */
  context: Row[];
  /** Rows and active rows by state. */
  states: { state: string; rows: number; active: number }[];
}
export interface RelationshipDetail {
  /** The row as import/upsert-relationships takes it. */
  link: Row & { line: number; supervisor_id: string; affiliate_id: string };
  /** The two ends as the row names them, for a reject. */
  ends: string;
}
export interface RelationshipChunk extends ChunkResult {
  lines: number[];
  supervisors: string[];
  affiliates: string[];
  /** Per line: relationshipIdentity. */
  identities: string[];
  /** Per line: what the read models hold of it (relationshipListFields). */
  listFields: string[];
  links: BulkText;
  /** Of the job's `detail` lines. */
  details: RelationshipDetail[];
}

/** A digest of what makes a relationship one: a repeat is the same one (see upsert-relationships). */
export const relationshipIdentity = (link: Row) =>
  hash('sha1', `${link.supervisor_id}|${link.affiliate_id}|${link.relationship_type}|${link.effective_from}`, 'base64');
