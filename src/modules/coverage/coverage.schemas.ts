import { JURISDICTION_STATUSES, REFRESH_FREQUENCIES } from '../../domain/vocabulary.js';
import { nullable } from '../../http/common.schemas.js';
import { z } from '../../http/zod.js';
import { RelationshipCoverage } from '../licensees/licensees.schemas.js';

export const CoverageStateRow = z
  .object({
    state: z.string(),
    status: z.string().openapi({ description: `Jurisdiction status: ${JURISDICTION_STATUSES.join(', ')}` }),
    refresh_frequency: z.string().nullable().optional().openapi({ description: REFRESH_FREQUENCIES.join(', ') }),
    record_count: z.number().int().nullable().optional(),
    active_record_count: z.number().int().nullable().optional(),
    last_updated: z.string().nullable().optional().openapi({ format: 'date-time', description: 'Last refresh of the data' }),
    relationship_coverage: RelationshipCoverage,
    relationship_coverage_notes: z.string().nullable().optional(),
  })
  .openapi('CoverageStateRow');

export const CoverageResponse = z.object({ states: z.array(CoverageStateRow) }).openapi('Coverage');

export const StateItem = z
  .object({
    code: z.string(),
    name: z.string().nullable(),
    status: z.string(),
    relationship_coverage: RelationshipCoverage,
    record_count: z.number().int().nullable(),
  })
  .passthrough()
  .openapi('StateItem', { description: 'An active jurisdiction' });

export const SourceItem = z
  .object({
    id: z.string().nullable(),
    state: z.string(),
    name: z.string().nullable(),
    url: z.string().nullable(),
    format: z.string().nullable(),
    refresh_frequency: z.string().nullable(),
    relationship_coverage: RelationshipCoverage,
    relationship_coverage_notes: z.string().nullable(),
    last_import_at: z.string().nullable().openapi({ format: 'date-time' }),
    last_import_rows: z.number().int().nullable(),
    last_snapshot_date: z.string().nullable().openapi({ format: 'date', description: 'Snapshot of the last refresh run' }),
    last_run: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'Summary of the last refresh run: counts inserted, updated, unchanged, left, edges opened and closed, rejected by reason' }),
    refresh_in_progress: z
      .object({
        run_id: z.string(),
        started_at: z.string().openapi({ format: 'date-time' }),
        last_heard_at: z.string().openapi({ format: 'date-time', description: 'Its last progress report (every 5 s while it runs)' }),
        phase: z.enum(['waiting', 'reading', 'relationships', 'landing']).openapi({ description: "waiting: for another state's refresh on an engine that runs one at a time (Neo4j); reading: the files, writing credentials as it goes; relationships: diffing and writing links; landing: read models, counts and the commit (on Neo4j, the publish)" }),
        rows_read: z.number().int(),
        rows_per_second: z.number().int(),
        percent_read: z.number().int().min(0).max(100).openapi({ description: "Share of the files' bytes read" }),
      })
      .nullable()
      .openapi({ description: 'The refresh of this state running now, if any: until it lands, every read answers from the previous snapshot' }),
  })
  .passthrough()
  .openapi('SourceItem', { description: 'The configured upstream source of one state' });

export const SourcesCoverageResponse = z
  .object({
    generated_at: z.string().openapi({ format: 'date-time' }),
    totals: z.object({
      jurisdictions: z.number().int(),
      record_count: z.number().int(),
      active_record_count: z.number().int(),
      by_relationship_coverage: z.record(z.string(), z.number().int()),
    }),
    states: z.array(CoverageStateRow.extend({ source: nullable(SourceItem) })),
  })
  .passthrough()
  .openapi('SourcesCoverage');
