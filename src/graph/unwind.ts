import type { GraphTx, Row } from './graph-port.js';

/** Runs a `$rows`-taking statement over `rows` in batches of `size`, inside the unit `t`. */
export async function unwindBatches(t: GraphTx, query: string, rows: Row[], size = 2000, params: Row = {}) {
  for (let i = 0; i < rows.length; i += size) await t.run(query, { ...params, rows: rows.slice(i, i + size) });
}

/** The query's rows one at a time: as they are read where the unit can (GraphTx.stream), else as `run` returns them. */
export async function* rowsOf(t: GraphTx, query: string, params: Row = {}): AsyncIterable<Row> {
  if (t.stream) yield* t.stream(query, params);
  else yield* await t.run(query, params);
}

/** Runs an `$ids`-taking query over `ids` in batches of 2,000, inside the unit `t`; every batch's rows. */
export async function idBatches(t: GraphTx, query: string, ids: unknown[], params: Row = {}): Promise<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < ids.length; i += 2000) out.push(...(await t.run(query, { ...params, ids: ids.slice(i, i + 2000) })));
  return out;
}
