import type { QueryFiles } from '../../src/graph/query-files.js';

/** Query files both engines run: everything but schema, engine-specific and analyst files. */
export const sharedQueryNames = (files: QueryFiles) => files.names().filter((n) => !/^(?:schema|engine|analyst)\//.test(n));

/** The analysts' queries, for Neo4j Browser (they read Neo4j's versions: docs/graph.md). */
export const analystQueryNames = (files: QueryFiles) => files.names().filter((n) => n.startsWith('analyst/'));

/** The query as its adapters run it (the test runs each as written). */
export const queryVariants = (files: QueryFiles, name: string): { label: string; query: string }[] => [{ label: 'as written', query: files.get(name) }];

/** Only the parameters a query text names (LadybugDB rejects unknown ones). */
export function paramsFor(query: string, params: Record<string, unknown>): Record<string, unknown> {
  const used = new Set([...query.matchAll(/\$(\w+)/g)].map((m) => m[1]));
  return Object.fromEntries(Object.entries(params).filter(([k]) => used.has(k)));
}

/** Labels, relationship types and properties declared in the LadybugDB schema file. */
export function schemaVocabulary(ladybugSchema: string) {
  const labels: string[] = [];
  const relationshipTypes: string[] = [];
  const propertyKeys = new Set<string>();
  const graphSchema: { from: string; to: string; relType: string }[] = [];
  const tableRe = /CREATE (NODE|REL) TABLE IF NOT EXISTS (\w+)\s*\(([\s\S]*?)\);/g;
  for (const [, kind, name, body] of ladybugSchema.matchAll(tableRe)) {
    (kind === 'NODE' ? labels : relationshipTypes).push(name);
    for (const part of body.split(',').map((p) => p.trim())) {
      const from = /^FROM (\w+) TO (\w+)$/.exec(part);
      if (from) graphSchema.push({ from: from[1], to: from[2], relType: name });
      else if (part) propertyKeys.add(part.split(/\s+/)[0]);
    }
  }
  return { labels, relationshipTypes, propertyKeys: [...propertyKeys], graphSchema };
}
