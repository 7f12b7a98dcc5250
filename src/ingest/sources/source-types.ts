import type { RelationshipType, AffiliateRole } from '../../domain/vocabulary.js';

/** A supervision link a source row names: the row's licence is supervised by `supervisor`. */
export interface SourceLink {
  supervisor_license_number: string;
  relationship_type: RelationshipType;
  affiliate_role: AffiliateRole;
  /** The source's start date (YYYY-MM-DD), or null when it publishes none. */
  effective_from: string | null;
  /**
   * The supervisor's credential as this row publishes it, for sources whose supervisors have no
   * rows of their own: it lands once per snapshot, from the first row that names it.
   */
  supervisor?: Record<string, string | undefined>;
}

/** One row of a source file, mapped to a canonical credentials.csv row (cells as strings). */
export interface SourceRow {
  line: number;
  raw: string;
  credential?: Record<string, string | undefined>;
  links?: SourceLink[];
  /** Why the row cannot be mapped at all. */
  error?: string;
  /** The reject reason for `error`, when the adapter gives one. */
  reason?: string;
}

export interface SourceFormat {
  /** e.g. trec-csv */
  format: string;
  sourceId: string;
  state: string;
  description: string;
  /** True when the first bytes of a file (decoded as latin-1) look like this format. */
  detect(head: string): boolean;
  /** Streams the file's rows in batches; `onBytes` reports progress in bytes read. */
  rows(file: string, onBytes?: (bytes: number) => void): AsyncIterable<SourceRow[]>;
}
