import type { GraphAdapters } from '../adapters-port.js';
import type { QueryFiles } from '../query-files.js';
import { openNeo4j, type Neo4jEngine, type Neo4jOptions } from './engine.js';
import { neo4jReads } from './reads.js';
import { neo4jSearchSource } from './search-source.js';
import { neo4jWrites } from './writes.js';

/** Neo4j's adapters over an open engine: reads by traversal. */
export function neo4jAdapters(graph: Neo4jEngine, files: QueryFiles): GraphAdapters {
  const writes = neo4jWrites(graph, files);
  let source: ReturnType<typeof neo4jSearchSource> | undefined;
  return {
    engine: graph,
    writes,
    reads: (today) => neo4jReads(graph, files, today),
    searchSource: () => (source ??= neo4jSearchSource(graph, files)),
    async close() {
      await writes.settle().catch(() => undefined);
      await graph.close();
    },
  };
}

/** Connects to the database and applies the schema. */
export async function openNeo4jAdapters(options: Neo4jOptions, files: QueryFiles, schema: string[]): Promise<GraphAdapters> {
  const graph = await openNeo4j(options);
  try {
    await graph.applySchema(schema);
    return neo4jAdapters(graph, files);
  } catch (err) {
    await graph.close();
    throw err;
  }
}
