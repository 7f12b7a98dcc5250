import type { GraphTx, Row } from './graph-port.js';

/** Runs a `$rows`-taking statement over `rows` in batches of `size`, inside the unit `t`. */
export async function unwindBatches(t: GraphTx, query: string, rows: Row[], size = 2000, params: Row = {}) {
  for (let i = 0; i < rows.length; i += size) await t.run(query, { ...params, rows: rows.slice(i, i + size) });
}
