import { TRANSFER_WINDOW_DAYS } from '../../domain/changes.js';
import type { GraphEngine, GraphTx } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { idBatches } from '../unwind.js';

/** Affiliates per statement, and per transaction in place. */
const BATCH = 2000;

/**
 * The roster marks of the relationships into affiliates (cypher/engine/neo4j/roster-marks.cypher).
 * `inUnit`: inside a refresh's unit, whose generation versions the changed transfer marks.
 * `inPlace`: after an import, a transaction per batch, so that a batch bounds what one holds.
 */
export function neo4jRosterMarks(files: QueryFiles) {
  const query = files.get('engine/neo4j/roster-marks');
  const params = { window: TRANSFER_WINDOW_DAYS, g: null };
  return {
    inUnit: (t: GraphTx, ids: string[]) => idBatches(t, query, ids, params),
    async inPlace(graph: Pick<GraphEngine, 'writeTransaction'>, ids: string[]) {
      for (let i = 0; i < ids.length; i += BATCH) await graph.writeTransaction((t) => t.run(query, { ...params, ids: ids.slice(i, i + BATCH) }));
    },
  };
}
