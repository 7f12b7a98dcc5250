import { encodeDoc } from '../../domain/credential-doc.js';
import type { GraphEngine, GraphTx, Row } from '../graph-port.js';
import type { QueryFiles } from '../query-files.js';
import { idBatches, unwindBatches } from '../unwind.js';
import type { EngineWrites } from '../writes-port.js';
import { neo4jInForce } from './in-force.js';

/**
 * Neo4j's writes: UNWIND batches; it keeps no JSON documents or read models, since it reads by
 * traversal, only the in-force relationships affiliates pages read (in-force.ts).
 */
export function neo4jWrites(graph: GraphEngine, files: QueryFiles): EngineWrites {
  const inForce = neo4jInForce(graph, files);
  const q = (name: string) => files.get(name);
  const queries = {
    records: q('engine/neo4j/credentials'),
    touchCredentials: q('refresh/touch-credentials'),
    createCredentials: q('refresh/create-credentials'),
    updateCredentials: q('refresh/update-credentials'),
    linkCreated: q('refresh/link-created-credentials'),
    createLinks: q('refresh/create-links'),
    nameGrams: q('engine/neo4j/name-grams'),
    nameGramsPending: q('engine/neo4j/name-grams-pending'),
  };
  const nameGrams = async (t: GraphTx, rows: Row[]) => void (await idBatches(t, queries.nameGrams, rows.map((r) => r.id)));
  const gramsPending = async (t: GraphTx, rows: Row[]) => void (await idBatches(t, queries.nameGramsPending, rows.map((r) => r.id)));
  const stored = (rows: Row[]) => rows.map((r) => ({ ...r, doc: null }));
  return {
    stored,
    writeReadModels: inForce.sync,
    // A unit per state: what one holds is bounded by a state's changes.
    async refreshReadModels(states) {
      for (const state of states) await graph.writeTransaction((t) => inForce.sync(t, [state]));
    },
    readModelsMissing: async () => false,
    /** Made from the credentials' fields. */
    docs: async (t, ids) => new Map((await idBatches(t, queries.records, ids)).map((r) => [(r.record as Row).id as string, encodeDoc(r.record as Row)])),
    touchCredentials: (t, rows) => unwindBatches(t, queries.touchCredentials, stored(rows)),
    credentialsWritten: (t, ids) => nameGrams(t, ids.map((id) => ({ id }))),
    async createCredentials(t, created) {
      // create-credentials merges the licensees too.
      await t.run(queries.createCredentials, { rows: stored(created) });
      await gramsPending(t, created);
    },
    async updateCredentials(t, rows) {
      await unwindBatches(t, queries.updateCredentials, stored(rows));
      await gramsPending(t, rows);
    },
    linkCreated: (t, state, rows) => unwindBatches(t, queries.linkCreated, rows, 2000, { state }),
    createLinks: (t, rows) => unwindBatches(t, queries.createLinks, rows),
  };
}
