import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { TRANSFER_WINDOW_DAYS } from '../../src/domain/changes.js';
import { splitStatements } from '../../src/graph/query-files.js';
import { analystQueryNames, queryVariants, sharedQueryNames, schemaVocabulary } from '../helpers/cypher-files.js';
import { files } from '../helpers/graph.js';
import { QUERY_PARAMS } from '../helpers/query-params.js';

// The 2.0.0-next.20 line is the newest that supports Node 20; its ESM build imports paths without
// extensions, which Node cannot resolve, so its CommonJS build is loaded.
const { lintCypherQuery } = createRequire(import.meta.url)('@neo4j-cypher/language-support') as typeof import('@neo4j-cypher/language-support');

// Keys of the $rows maps that queries read inside node patterns ({id: r.supervisor_id}), which no
// node has as a property: the linter takes them for properties. LadybugDB needs that form:
// aliasing them first (WITH r.x AS y) makes its planner exhaust the buffer pool on large graphs.
const ROW_KEYS = ['supervisor_id', 'affiliate_id', 'licensee_id'];
const base = schemaVocabulary(files.get('schema/ladybug'));
const vocabulary = { ...base, propertyKeys: [...base.propertyKeys, ...ROW_KEYS] };
const VERSIONS = ['CYPHER 5', 'CYPHER 25'] as const;
// The query files are linted for the language the pinned Neo4j (5.26) runs: a lint takes about
// 0.12 s of CPU, and the second version doubled the file's minute. The schema is linted for both.
const QUERY_VERSION = 'CYPHER 5';

// Labels and relationship types only Neo4j has (its schema's bookkeeping, the structures its reads
// keep) are declared by the constraints and relationship indexes on them.
const neo4jSchema = files.get('schema/neo4j');
const neo4jOnly = {
  labels: [
    ...new Set([
      ...vocabulary.labels,
      ...[...neo4jSchema.matchAll(/CREATE (?:CONSTRAINT|(?:FULLTEXT )?INDEX) \w+ IF NOT EXISTS FOR \(\w+:([\w|]+)\)/g)].flatMap((m) => m[1].split('|')),
      // The marks of a refresh's versions and pending values, which no index declares (docs/graph.md, Versions).
      'Versioned',
      'Pending',
      'Promoted',
      // What the schema removes from a graph written before decision 0029.
      'NoGrams',
    ]),
  ],
  relationshipTypes: [...new Set([...vocabulary.relationshipTypes, ...[...neo4jSchema.matchAll(/CREATE INDEX \w+ IF NOT EXISTS FOR \(\)-\[\w+:(\w+)\]-\(\)/g)].map((m) => m[1]), 'NAME_GRAM'])],
};

function lint(query: string, parameters: Record<string, unknown>, version: (typeof VERSIONS)[number], neo4j = false) {
  const diagnostics = lintCypherQuery(`${version} ${query}`, { ...vocabulary, ...(neo4j ? neo4jOnly : {}), parameters });
  // Warnings count as failures: a misspelled label, type or property is only a warning.
  return diagnostics.map((d) => `${d.severity === 1 ? 'error' : 'warning'}: ${d.message}`);
}

describe("Neo4j's linter over the shared Cypher files", () => {
  it('when the schema file is parsed then it declares the labels and types the queries use', () => {
    for (const key of ROW_KEYS) expect(base.propertyKeys).not.toContain(key);
    expect(vocabulary.labels).toEqual(expect.arrayContaining(['LicenseCredential', 'Licensee', 'Brokerage', 'Jurisdiction', 'Source']));
    expect(vocabulary.relationshipTypes).toEqual(expect.arrayContaining(['HOLDS', 'SUPERVISES', 'IN_JURISDICTION', 'AFFILIATED_WITH']));
  });

  it('when the schema marks transfers on a store written before then it uses the window the writes and the feed use', () => {
    const migration = splitStatements(files.get('schema/neo4j')).find((q) => q.includes('SET r.came'));
    expect([...(migration ?? '').matchAll(/duration\(\{days: (\d+)\}\)/g)].map((m) => Number(m[1]))).toEqual([TRANSFER_WINDOW_DAYS, TRANSFER_WINDOW_DAYS]);
  });

  it('when a query has a misspelled label, relationship type or parameter then the lint fails', () => {
    expect(lint('MATCH (c:LicenseCredentail {id: $id}) RETURN c.id AS x', { id: 'x' }, 'CYPHER 5')).toHaveLength(1);
    expect(lint('MATCH (c:LicenseCredential {id: $id})-[:SUPERVISEZ]->(d) RETURN d.id AS x', { id: 'x' }, 'CYPHER 25')).toHaveLength(1);
    expect(lint('MATCH (c:LicenseCredential {id: $idd}) RETURN c.id AS x', { id: 'x' }, 'CYPHER 25')).not.toEqual([]);
  });

  // The shared files, and those written for Neo4j alone (its engine's, and the analysts' for Neo4j Browser).
  for (const name of [...sharedQueryNames(files), ...analystQueryNames(files), ...files.names().filter((n) => n.startsWith('engine/neo4j/') && !n.endsWith('.filters'))]) {
    it(`when cypher/${name}.cypher is linted for ${QUERY_VERSION} then it has no error or warning`, () => {
      const params = QUERY_PARAMS[name];
      expect(params, `test/helpers/query-params.ts has no parameters for ${name}`).toBeDefined();
      for (const { label, query } of queryVariants(files, name)) expect(lint(query, params, QUERY_VERSION, /^(?:engine\/neo4j|analyst)\//.test(name)), label).toEqual([]);
    });
  }

  for (const version of VERSIONS) {
    it(`when the Neo4j schema file is linted for ${version} then every statement is clean`, () => {
      for (const statement of splitStatements(neo4jSchema)) expect(lint(statement, {}, version, true), statement).toEqual([]);
    });
  }
});
