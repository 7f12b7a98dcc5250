// Neo4j's offline importer (`neo4j-admin database import full`) as a sink of the canonical
// import's bulk path: a first load into a store that does not exist yet, for datasets too large to
// send over Bolt in reasonable time (docs/decisions/0008).
// The files keep the bulk dialect (control-character delimiter and quote, lists joined by
// NOTES_SEPARATOR) with Neo4j's typed headers; statements over rows no file holds wait for the
// store to be up (runStatements).
import fs from 'node:fs';
import path from 'node:path';
import type { BulkFile, BulkKind, BulkSink, GraphEngine, Params, ParsedRows } from '../graph-port.js';
import { FIELD_SEPARATOR, NOTES_SEPARATOR, QUOTE, bulkFields, csvHeader, csvRow, jurisdictionKey, readBulkRecords } from '../bulk-file.js';
import type { QueryFiles } from '../query-files.js';
import { SEARCH_BROKER_COLUMNS, SEARCH_INDEX_COLUMNS } from '../search-source-port.js';
import { BROKERAGE_RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import { Int32Column } from '../../domain/int32-column.js';
import { Interned, ParsedLinks, came, went } from './import-roster.js';
import { inForceKey } from './keys.js';
import { LIST_FIELDS } from './list-fields.js';
import { neo4jRosterMarks } from './roster-marks.js';

/**
 * Label or type, and the typed header column of each column that is not a plain string. No
 * read-model lists: Neo4j reads the relationships by traversal. Nodes are named by integer keys
 * (list-fields.ts importKeys; bulk-file.ts), not kept as properties: with string ids the importer
 * took half as long again at 3M (decision 0049).
 */
const LAYOUT: Partial<Record<BulkKind, { node?: string; relationship?: string; typed: Record<string, string> }>> = {
  // No JSON read model (doc) either: Neo4j reads the credential's fields.
  credentials: { node: 'LicenseCredential', typed: { key: ':ID(LicenseCredential)', data_source_notes: 'data_source_notes:string[]', doc: ':IGNORE' } },
  licensees: { node: 'Licensee', typed: { key: ':ID(Licensee)' } },
  jurisdictionLinks: { relationship: 'IN_JURISDICTION', typed: { from: ':START_ID(LicenseCredential)', to: ':END_ID(Jurisdiction)' } },
  holds: { relationship: 'HOLDS', typed: { from: ':START_ID(Licensee)', to: ':END_ID(LicenseCredential)' } },
  links: { relationship: 'SUPERVISES', typed: { from: ':START_ID(LicenseCredential)', to: ':END_ID(LicenseCredential)' } },
};

function layout(kind: BulkKind) {
  const found = LAYOUT[kind];
  if (!found) throw new Error(`Neo4j's import takes no ${kind}`);
  return found;
}

const unicode = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

const [S_STATE, S_SORT_KEY, S_FULL, S_BUSINESS] = ['state', 'sort_key', 'f_full', 'f_business'].map((c) => SEARCH_INDEX_COLUMNS.indexOf(c as never));

/** Lines written to a file in batches of 10,000, each a synchronous write of a few MB into the page cache. */
function lineWriter(file: string) {
  const fd = fs.openSync(file, 'w');
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) fs.writeSync(fd, `${lines.join('\n')}\n`);
    lines = [];
  };
  return {
    add(line: string) {
      if (lines.push(line) === 10_000) flush();
    },
    close() {
      flush();
      fs.closeSync(fd);
    },
  };
}

/**
 * What the in-force keys, the roster marks and the search rows need of each credential the bulk
 * path parsed, by its number (its place in the credentials file): its search row's state, sort key
 * and folded names.
 */
class ParsedCredentials {
  readonly ids: string[] = [];
  /** Each one's key in the files (importKey). */
  readonly keys: number[] = [];
  readonly sortKeys: string[] = [];
  /** Its folded full and business names as a supervisor's brokerage row gives them (search-brokers.cypher). */
  readonly names: string[] = [];
  private readonly states = new Int32Column();
  private readonly stateCodes = new Interned();

  /** A credential with its search row (list-fields.ts) and its key; returns its number. */
  add(id: string, row: string, key: number): number {
    this.keys.push(key);
    const fields = row.includes(QUOTE) ? bulkFields(row) : row.split(FIELD_SEPARATOR);
    this.sortKeys.push(fields[S_SORT_KEY]!);
    this.names.push(`${fields[S_FULL] || ''} ${fields[S_BUSINESS] || ''}`);
    this.states.push(this.stateCodes.code(fields[S_STATE]));
    return this.ids.push(id) - 1;
  }

  state(n: number) {
    return this.stateCodes.values[this.states.array[n]]!;
  }
}

/**
 * A links file copied with its ends' ids made their keys, and with what the importer cannot
 * derive and the schema would otherwise set over every relationship at the first start: the
 * supervisor's id (roster-changes.cypher seeks by it) and the roster marks (import-roster.ts).
 * Its records are the parsed relationships, in order (bulk-import.ts).
 */
async function withRosterFields(from: string, to: string, credentials: ParsedCredentials, links: ParsedLinks, marks: Uint8Array) {
  const out = lineWriter(to);
  let n = -1;
  for await (const records of readBulkRecords(from)) {
    for (const record of records) {
      if (n === -1) {
        out.add(`${record}${FIELD_SEPARATOR}${csvHeader(['supervisor_id', 'came:boolean', 'went:boolean'])}`);
        n++;
        continue;
      }
      const [s, a] = [links.supervisors.array[n], links.affiliates.array[n]];
      const [supervisor, affiliate] = [credentials.ids[s], credentials.ids[a]];
      const ends = `${supervisor}${FIELD_SEPARATOR}${affiliate}${FIELD_SEPARATOR}`;
      if (!record.startsWith(ends)) throw new Error(`links file record ${n + 1} is not the relationship parsed as ${n}`);
      out.add([credentials.keys[s], credentials.keys[a], record.slice(ends.length), supervisor, came(marks[n]), went(marks[n])].join(FIELD_SEPARATOR));
      n++;
    }
  }
  out.close();
  if (n !== links.length) throw new Error(`the links file holds ${n} of the ${links.length} relationships parsed`);
}

/** The roster's day counts as RosterDay nodes (roster-days.cypher). */
function writeRosterDays(file: string, credentials: ParsedCredentials, links: ParsedLinks, marks: Uint8Array) {
  const out = lineWriter(file);
  out.add(csvHeader(['supervisor_id', 'day:date', 'joined:long', 'left:long', 'came:long', 'went:long', 'live:long']));
  links.days(credentials.ids.length, marks, (supervisor, date, ...counts) => out.add([credentials.ids[supervisor], links.dateOf(date), ...counts].join(FIELD_SEPARATOR)));
  out.close();
}

/**
 * The importer's input, written into `dir` (which must exist). `today`: the day the
 * SUPERVISES_IN_FORCE relationships hold the links in force on.
 */
export function neo4jImportFiles(dir: string, today = new Date().toISOString().slice(0, 10)) {
  const files = new Map<BulkKind, string[]>();
  // The credentials and relationships as parsed: the in-force relationships and the roster are
  // written once all are known (cypher/engine/neo4j/in-force-add.cypher).
  const credentials = new ParsedCredentials();
  const links = new ParsedLinks();
  // Every credential's search row as it is parsed, then the brokerage rows (searchRows).
  const searchFile = path.join(dir, 'search-rows.csv');
  const search = lineWriter(searchFile);
  const inForceFile = path.join(dir, 'in-force.csv');
  const rosterDaysFile = path.join(dir, 'roster-days.csv');
  const parsed: ParsedRows = {
    addCredential(id, row, key) {
      search.add(row);
      return credentials.add(id, row, key);
    },
    addRelationship: (supervisor, affiliate, fields) => links.add(supervisor, affiliate, fields),
    setRelationship: (n, fields) => links.set(n, fields),
    write: () => ({
      async load() {
        const out = lineWriter(inForceFile);
        const columns = ['from', 'to', 'supervisor', 'page_key', 'relationship_type', 'effective_from', 'affiliate_role', 'effective_to'];
        out.add(csvHeader([':START_ID(LicenseCredential)', ':END_ID(LicenseCredential)', 'supervisor_id', 'page_key', 'relationship_type', 'effective_from:date', 'affiliate_role', 'effective_to:date']));
        for (let n = 0; n < links.length; n++) {
          const { type: relationship_type, from: effective_from, role: affiliate_role, to: effective_to } = links.fields(n);
          if (!(effective_from && effective_from <= today && (!effective_to || effective_to > today))) continue;
          const [s, a] = [links.supervisors.array[n], links.affiliates.array[n]];
          const [supervisor, affiliate] = [credentials.ids[s], credentials.ids[a]];
          const fields = { relationship_type, effective_from, affiliate_role, effective_to };
          out.add(csvRow(columns, { from: credentials.keys[s], to: credentials.keys[a], supervisor, page_key: inForceKey(credentials.sortKeys[a], affiliate, fields), ...fields }));
        }
        out.close();
      },
    }),
  };
  const statements: { query: string; params: Params }[] = [];
  let lineBreaks = false;
  const sink: BulkSink = {
    header: (kind, columns, dates) => csvHeader(columns.map((c) => layout(kind).typed[c] ?? (dates.includes(c) ? `${c}:date` : c))),
    parsed: () => parsed,
    listFields: LIST_FIELDS,
    async load(kind, file: BulkFile) {
      layout(kind);
      const own = path.join(dir, `${kind}-${(files.get(kind)?.length ?? 0) + 1}.csv`);
      if (kind === 'links') {
        // Every relationship is parsed by now, and every credential's file written (bulkLoad).
        const marks = links.marks(credentials.ids.length);
        await withRosterFields(file.path, own, credentials, links, marks);
        fs.rmSync(file.path, { force: true });
        writeRosterDays(rosterDaysFile, credentials, links, marks);
      } else {
        try {
          fs.renameSync(file.path, own);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
          fs.copyFileSync(file.path, own);
        }
      }
      files.set(kind, [...(files.get(kind) ?? []), own]);
      lineBreaks ||= file.lineBreaks;
    },
    async run(query, params) {
      statements.push({ query, params });
    },
  };
  return {
    sink,
    statements,
    /**
     * The search rows of the loaded store, as its search source would export them (SEARCH_INDEX_COLUMNS
     * rows, then SEARCH_BROKER_COLUMNS rows), once it is up and the statements have run: a first
     * search index can be built from them instead of from an export (seedSearchIndex in
     * src/search/holder.ts). The brokerage rows of the credentials a statement linked are read
     * from the store.
     */
    async searchRows(graph: GraphEngine, queries: QueryFiles): Promise<string> {
      const linked = new Set<string>();
      const statementRows = (name: string) => statements.filter((s) => s.query === queries.get(name)).flatMap((s) => s.params.rows as Record<string, string>[]);
      for (const r of statementRows('import/upsert-relationships')) linked.add(r.affiliate_id);
      for (const r of statementRows('import/link-brokerage-context')) linked.add(r.id);
      const types = new Set<string>(BROKERAGE_RELATIONSHIP_TYPES);
      const columns = SEARCH_BROKER_COLUMNS as unknown as string[];
      for (let n = 0; n < links.length; n++) {
        const { type, from: effective_from, to: effective_to } = links.fields(n);
        const [s, a] = [links.supervisors.array[n], links.affiliates.array[n]];
        if (linked.has(credentials.ids[a]) || !types.has(type) || !effective_from) continue;
        search.add(csvRow(columns, { state: credentials.state(a), id: credentials.ids[a], effective_from, effective_to, names: credentials.names[s] }));
      }
      // A statement's row may name a credential no file holds (its MATCH finds nothing).
      const ids: string[] = [];
      const states = new Set<string>();
      credentials.ids.forEach((id, n) => linked.has(id) && ids.push(id) && states.add(credentials.state(n)));
      for (let i = 0; i < ids.length; i += 2000) {
        const chunk = ids.slice(i, i + 2000);
        for (const name of ['engine/neo4j/search-brokers-by-id', 'engine/neo4j/search-brokerages-by-id']) {
          for (const row of await graph.read(queries.get(name), { ids: chunk, states: [...states], g: 0, types: [...types] })) search.add(csvRow(columns, row));
        }
      }
      search.close();
      return searchFile;
    },
    /**
     * Runs the statements, in order, on the imported store once it is up and its schema applied
     * (which marked the files' relationships), then marks the relationships into the affiliates
     * they linked (roster-marks.cypher).
     */
    async runStatements(graph: GraphEngine, queries: QueryFiles) {
      for (const { query, params } of statements) await graph.writeTransaction((t) => t.run(query, params));
      const upserts = queries.get('import/upsert-relationships');
      const linked = statements.filter((s) => s.query === upserts).flatMap((s) => (s.params.rows as { affiliate_id: string }[]).map((r) => r.affiliate_id));
      await neo4jRosterMarks(queries).inPlace(graph, [...new Set(linked)]);
    },
    /**
     * The options of `neo4j-admin database import full` over the files (tools/neo4j/run.mjs
     * import). `jurisdictions`: the codes credentials may name, as Jurisdiction nodes whose other
     * properties the statements set.
     */
    importOptions(jurisdictions: string[]): string[] {
      const jurisdictionsFile = path.join(dir, 'jurisdictions.csv');
      fs.writeFileSync(jurisdictionsFile, `:ID(Jurisdiction)${FIELD_SEPARATOR}code\n${jurisdictions.map((c) => `${jurisdictionKey(c)}${FIELD_SEPARATOR}${c}\n`).join('')}`);
      // The in-force day, and the Migration nodes of the name grams' and the list keys' removal, of
      // supervisor_id and the roster marks on SUPERVISES (the links files carry them) and of the
      // roster's day counts: the schema and the first start do none of them again.
      const markers = [path.join(dir, 'in-force-day.csv'), path.join(dir, 'migrations.csv')];
      const migrations = ['no-name-grams', 'supervises-supervisor-id', 'no-list-key', 'supervises-transfer-marks', 'roster-days'];
      fs.writeFileSync(markers[0], `:ID(InForceDay)${FIELD_SEPARATOR}id${FIELD_SEPARATOR}date:date\n0${FIELD_SEPARATOR}supervises${FIELD_SEPARATOR}${today}\n`);
      fs.writeFileSync(markers[1], `:ID(Migration)${FIELD_SEPARATOR}id\n${migrations.map((m, i) => `${i}${FIELD_SEPARATOR}${m}\n`).join('')}`);
      const options = [
        `--delimiter=${unicode(FIELD_SEPARATOR)}`,
        `--quote=${unicode(QUOTE)}`,
        `--array-delimiter=${unicode(NOTES_SEPARATOR)}`,
        '--id-type=integer',
        // Every row was validated and every key checked by the bulk path: anything bad is a defect.
        '--bad-tolerance=0',
        '--auto-skip-subsequent-headers=true',
        '--overwrite-destination=true',
        // Its default is import.report in the working directory.
        `--report-file=${path.join(dir, 'import.report')}`,
        `--multiline-fields=${lineBreaks}`,
        `--nodes=Jurisdiction=${jurisdictionsFile}`,
        `--nodes=InForceDay=${markers[0]}`,
        `--nodes=Migration=${markers[1]}`,
        ...(fs.existsSync(inForceFile) ? [`--relationships=SUPERVISES_IN_FORCE=${inForceFile}`] : []),
        ...(fs.existsSync(rosterDaysFile) ? [`--nodes=RosterDay=${rosterDaysFile}`] : []),
      ];
      for (const [kind, paths] of files) {
        const { node, relationship } = layout(kind);
        options.push(node ? `--nodes=${node}=${paths.join(',')}` : `--relationships=${relationship}=${paths.join(',')}`);
      }
      return options;
    },
  };
}
