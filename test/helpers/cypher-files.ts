import { parseFragments, type QueryFiles } from '../../src/graph/query-files.js';

/** Query files both engines run: everything but schema, engine-specific and fragment files. */
export const sharedQueryNames = (files: QueryFiles) =>
  files.names().filter((n) => !n.startsWith('schema/') && !n.startsWith('engine/') && !n.endsWith('.filters'));

/** Queries that take another query's fragments, as their repositories build them. */
const SHARED_FILTERS: Record<string, string> = {
  'engine/neo4j/browse': 'engine/neo4j/search.filters',
  'engine/neo4j/browse-count': 'engine/neo4j/search.filters',
};

/** The fragments file of a query: its own, its page query's (-count), or the one it shares. */
function filtersOf(files: QueryFiles, name: string): string {
  const own = [`${name}.filters`, `${name.replace(/-count$/, '')}.filters`].find((n) => files.names().includes(n));
  return own ?? SHARED_FILTERS[name] ?? `${name}.filters`;
}

/** A query with every filter fragment of its filters file inserted (term params suffixed _0). */
export function withAllFilters(files: QueryFiles, name: string): string {
  const text = files.get(name);
  if (!text.includes('// @filters')) return text;
  const filtersName = filtersOf(files, name);
  const fragments = [...parseFragments(files.get(filtersName)).entries()]
    // in_force_on and started_by are alternatives; the lint and execution tests run each alone too.
    .filter(([key]) => key !== 'started_by')
    .map(([, f]) => f.replace(/\$(\w+_term)\b/g, '$$$1_0'));
  return text.replace('// @filters', fragments.join('\n'));
}

/** The query with all its fragments, then with each fragment alone (one query when unfiltered). */
export function queryVariants(files: QueryFiles, name: string): { label: string; query: string }[] {
  const text = files.get(name);
  if (!text.includes('// @filters')) return [{ label: 'as written', query: text }];
  const filtersName = filtersOf(files, name);
  const fragments = [...parseFragments(files.get(filtersName)).entries()];
  return [
    { label: 'with its filters', query: withAllFilters(files, name) },
    { label: 'unfiltered', query: text.replace('// @filters', '') },
    ...fragments.map(([key, f]) => ({ label: `with ${key}`, query: text.replace('// @filters', f.replace(/\$(\w+_term)\b/g, '$$$1_0')) })),
  ];
}

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
