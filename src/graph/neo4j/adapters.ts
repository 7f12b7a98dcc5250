import type { GraphAdapters } from '../adapters-port.js';
import type { QueryFiles } from '../query-files.js';
import type { SearchRowsPacker } from '../search-source-port.js';
import { openNeo4j, type Neo4jEngine, type Neo4jOptions } from './engine.js';
import { neo4jReads } from './reads.js';
import { neo4jRosterMarks } from './roster-marks.js';
import { neo4jSearchSource } from './search-source.js';
import { neo4jVersions } from './versions.js';
import { neo4jWrites } from './writes.js';

/** Neo4j's adapters over an open engine: reads by traversal. `pack`: how a refresh packs its changed search rows. */
export function neo4jAdapters(graph: Neo4jEngine, files: QueryFiles, pack?: SearchRowsPacker): GraphAdapters {
  const writes = neo4jWrites(graph, files, pack);
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

/** Applies the schema, then builds once what it names but only a query can make (a roster's day counts). */
export async function setUpNeo4j(graph: Neo4jEngine, files: QueryFiles, schema: string[]): Promise<void> {
  await graph.applySchema(schema);
  const versions = neo4jVersions(graph, files);
  await neo4jRosterMarks(files).buildDays(graph, (fn) => versions.exclusive(fn));
}

/** Connects to the database and sets it up. */
export async function openNeo4jAdapters(options: Neo4jOptions, files: QueryFiles, schema: string[], pack?: SearchRowsPacker): Promise<GraphAdapters> {
  const graph = await openNeo4j(options);
  try {
    await setUpNeo4j(graph, files, schema);
    return neo4jAdapters(graph, files, pack);
  } catch (err) {
    await graph.close();
    throw err;
  }
}
