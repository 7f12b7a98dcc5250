import DataLoader from 'dataloader';
import type { GraphEngine, Row } from './graph-port.js';

/**
 * Reads of concurrent requests go to the engine together, as one query per turn of the event loop
 * for each set of other parameters (Neo4j's traversals: a query costs mostly itself). `query`
 * takes `$ids` and answers rows naming their credential in `column`; each caller gets its
 * credential's rows (none: not on file).
 */
export function batchedReads(graph: Pick<GraphEngine, 'read'>, query: string, column: (r: Row) => unknown) {
  const loader = new DataLoader<string, Row[]>(
    async (keys) => {
      const groups = new Map<string, string[]>();
      for (const key of keys) {
        const [params, id] = key.split('\u0000');
        const group = groups.get(params);
        if (group) group.push(id);
        else groups.set(params, [id]);
      }
      const found = new Map<string, Row[]>();
      await Promise.all(
        [...groups].map(async ([params, ids]) => {
          for (const r of await graph.read(query, { ...JSON.parse(params), ids: [...new Set(ids)] })) {
            const key = `${params}\u0000${column(r)}`;
            const rows = found.get(key);
            if (rows) rows.push(r);
            else found.set(key, [r]);
          }
        }),
      );
      return keys.map((key) => found.get(key) ?? []);
    },
    { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
  return (id: string, params: Row) => loader.load(`${JSON.stringify(params)}\u0000${id}`);
}
