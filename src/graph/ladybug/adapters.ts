import type { GraphAdapters } from '../adapters-port.js';
import type { QueryFiles } from '../query-files.js';
import { openLadybug, type LadybugEngine, type LadybugOptions } from './engine.js';
import { ladybugReads } from './reads.js';
import { ladybugSearchSource } from './search-source.js';
import { ladybugWrites } from './writes.js';

/** LadybugDB's adapters over an open engine. */
export function ladybugAdapters(graph: LadybugEngine, files: QueryFiles): GraphAdapters & { writes: ReturnType<typeof ladybugWrites> } {
  const writes = ladybugWrites(graph, files);
  let source: ReturnType<typeof ladybugSearchSource> | undefined;
  return {
    engine: graph,
    writes,
    reads: (today) => ladybugReads(graph, files, today),
    bulk: writes.bulk,
    searchSource: () => (source ??= ladybugSearchSource(graph, { rows: files.get('engine/ladybug/search-rows'), brokers: files.get('engine/ladybug/search-brokers'), brokerages: files.get('engine/ladybug/search-brokerages') })),
    close: () => graph.close(),
  };
}

/**
 * Opens the graph file with its schema; a graph written before the read models existed gets them
 * (`onReadModels` hears how long that took).
 */
export async function openLadybugAdapters(options: LadybugOptions, files: QueryFiles, schema: string[], onReadModels?: (ms: number) => void): Promise<GraphAdapters> {
  const graph = await openLadybug(options);
  try {
    await graph.applySchema(schema);
    const set = ladybugAdapters(graph, files);
    const started = Date.now();
    if (await set.writes.buildMissingReadModels()) onReadModels?.(Date.now() - started);
    return set;
  } catch (err) {
    await graph.close();
    throw err;
  }
}
