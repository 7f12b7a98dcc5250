// Neo4j's offline importer (`neo4j-admin database import full`) as a sink of the canonical
// import's bulk path: a first load into a store that does not exist yet, for datasets too large to
// send over Bolt in reasonable time (docs/decisions/0008).
// The files keep the bulk dialect (control-character delimiter and quote, lists joined by
// NOTES_SEPARATOR) with Neo4j's typed headers; statements over rows no file holds wait for the
// store to be up (runStatements).
import fs from 'node:fs';
import path from 'node:path';
import type { BulkFile, BulkKind, BulkSink, GraphEngine, Params, ParsedRows } from '../graph-port.js';
import { CREDENTIAL_COLUMNS, FIELD_SEPARATOR, LINK_COLUMNS, NOTES_SEPARATOR, QUOTE, bulkFields, csvHeader, csvRow, readBulkRecords } from '../bulk-file.js';
import type { QueryFiles } from '../query-files.js';
import { SEARCH_BROKER_COLUMNS, SEARCH_INDEX_COLUMNS } from '../search-source-port.js';
import { BROKERAGE_RELATIONSHIP_TYPES } from '../../domain/vocabulary.js';
import { importRoster, listKey } from './import-roster.js';
import { inForceKey } from './keys.js';
import { LIST_FIELDS } from './list-fields.js';
import { neo4jRosterMarks } from './roster-marks.js';

/**
 * Label or type, and the typed header column of each column that is not a plain string. No
 * read-model lists: Neo4j reads the relationships by traversal.
 */
const LAYOUT: Partial<Record<BulkKind, { node?: string; relationship?: string; typed: Record<string, string> }>> = {
  // No JSON read model (doc) either: Neo4j reads the credential's fields.
  credentials: { node: 'LicenseCredential', typed: { id: 'id:ID(LicenseCredential)', data_source_notes: 'data_source_notes:string[]', doc: ':IGNORE' } },
  licensees: { node: 'Licensee', typed: { id: 'id:ID(Licensee)' } },
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

const [ID, STATE, SORT_KEY, F_FULL, F_BUSINESS] = ['id', 'state', 'sort_key', 'f_full', 'f_business'].map((c) => CREDENTIAL_COLUMNS.indexOf(c));
const [L_FROM, L_TO, L_ROLE, L_TYPE, L_START, L_END] = ['from', 'to', 'affiliate_role', 'relationship_type', 'effective_from', 'effective_to'].map((c) => LINK_COLUMNS.indexOf(c));
/** Where each search row column is in a credentials file (the status a reader sees is the normalized one: a new store has none pending). */
const SEARCH_FROM = SEARCH_INDEX_COLUMNS.map((c) => CREDENTIAL_COLUMNS.indexOf(c === 'status' ? 'status_normalized' : c));
const SEARCH_COLUMNS = SEARCH_INDEX_COLUMNS as unknown as string[];

/** What the in-force keys and the search rows need of a credential once its file is written. */
interface Known {
  /** Its number among the credentials, in file order. */
  n: number;
  sortKey: string;
  state: string;
  /** Its folded full and business names as a supervisor's brokerage row gives them (search-brokers.cypher). */
  names: string;
}

async function write(stream: fs.WriteStream, text: string) {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
}

const ended = (stream: fs.WriteStream) => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));

/**
 * A links file copied with what the importer cannot derive and the schema would otherwise set
 * over every relationship at the first start: the supervisor's id (its first column, the start
 * id, which the importer keeps as no property; roster-changes.cypher seeks by it) and the roster
 * marks (import-roster.ts).
 */
async function withRosterFields(from: string, to: string, known: Map<string, Known>, roster: ReturnType<typeof importRoster>) {
  const out = fs.createWriteStream(to);
  let header = true;
  for await (const records of readBulkRecords(from)) {
    const lines = records.map((record) => {
      if (header) {
        header = false;
        return `${record}${FIELD_SEPARATOR}${csvHeader(['supervisor_id', 'list_key', 'came:boolean', 'went:boolean'])}`;
      }
      const f = bulkFields(record);
      const [supervisor, affiliate, type, start, end] = [f[L_FROM]!, f[L_TO]!, f[L_TYPE], f[L_START], f[L_END]];
      const { came, went } = roster.marks(supervisor, affiliate, type ?? '', start, end);
      // A sort key ends with the licence number after the first \u0001 (nameSortKey): no copy of 3M numbers is kept for this.
      const sortKey = known.get(affiliate)!.sortKey;
      const marks = { supervisor, key: listKey(sortKey.slice(sortKey.indexOf('\u0001') + 1), affiliate, type, start, f[L_ROLE]), came: String(came), went: String(went) };
      return `${record}${FIELD_SEPARATOR}${csvRow(['supervisor', 'key', 'came', 'went'], marks)}`;
    });
    await write(out, `${lines.join('\n')}\n`);
  }
  await ended(out);
}

/** The roster's day counts as RosterDay nodes (roster-days.cypher), a supervisor at a time. */
async function writeRosterDays(file: string, roster: ReturnType<typeof importRoster>) {
  const out = fs.createWriteStream(file);
  const columns = ['supervisor_id', 'day', 'joined', 'left', 'came', 'went', 'live'];
  await write(out, `${csvHeader(['supervisor_id', 'day:date', 'joined:long', 'left:long', 'came:long', 'went:long', 'live:long'])}\n`);
  let lines: string[] = [];
  for (const day of roster.days()) {
    lines.push(csvRow(columns, Object.fromEntries(columns.map((c, i) => [c, day[i]]))));
    if (lines.length === 10_000) {
      await write(out, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length) await write(out, `${lines.join('\n')}\n`);
  await ended(out);
}

/** Records what `known` keeps of each credential of a credentials file, and writes its search row to `search`. */
async function readCredentials(credentials: string, known: Map<string, Known>, search: fs.WriteStream) {
  let header = true;
  for await (const records of readBulkRecords(credentials)) {
    const lines: string[] = [];
    for (const record of records) {
      if (header) {
        header = false;
        continue;
      }
      const quoted = record.includes(QUOTE);
      const fields = quoted ? bulkFields(record) : record.split(FIELD_SEPARATOR);
      known.set(fields[ID]!, { n: known.get(fields[ID]!)?.n ?? known.size, sortKey: fields[SORT_KEY]!, state: fields[STATE]!, names: `${fields[F_FULL] ?? ''} ${fields[F_BUSINESS] ?? ''}` });
      // A record without a quote has no cell that needs one: its cells are copied as they are.
      lines.push(quoted ? csvRow(SEARCH_COLUMNS, Object.fromEntries(SEARCH_COLUMNS.map((c, i) => [c, fields[SEARCH_FROM[i]]]))) : SEARCH_FROM.map((i) => fields[i]).join(FIELD_SEPARATOR));
    }
    if (lines.length) await write(search, `${lines.join('\n')}\n`);
  }
}

/**
 * The importer's input, written into `dir` (which must exist). `today`: the day the
 * SUPERVISES_IN_FORCE relationships hold the links in force on.
 */
export function neo4jImportFiles(dir: string, today = new Date().toISOString().slice(0, 10)) {
  const files = new Map<BulkKind, string[]>();
  // What credentials' files hold (read back from them) and the relationships as parsed: the in-force
  // relationships written once all are known (cypher/engine/neo4j/in-force-add.cypher).
  const known = new Map<string, Known>();
  // Every credential's search row as its file is written, then the brokerage rows (searchRows).
  const searchFile = path.join(dir, 'search-rows.csv');
  let search: fs.WriteStream | undefined;
  const credentialIds: string[] = [];
  const links: { supervisor: string; affiliate: string; fields: string }[] = [];
  const inForceFile = path.join(dir, 'in-force.csv');
  const rosterDaysFile = path.join(dir, 'roster-days.csv');
  const parsed: ParsedRows = {
    addCredential: (id) => credentialIds.push(id) - 1,
    addRelationship: (supervisor, affiliate, fields) => links.push({ supervisor: credentialIds[supervisor], affiliate: credentialIds[affiliate], fields }) - 1,
    setRelationship: (n, fields) => void (links[n].fields = fields),
    write: () => ({
      async load() {
        const stream = fs.createWriteStream(inForceFile);
        stream.write(`${csvHeader([':START_ID(LicenseCredential)', ':END_ID(LicenseCredential)', 'supervisor_id', 'page_key', 'relationship_type', 'effective_from:date', 'affiliate_role', 'effective_to:date'])}\n`);
        for (const { supervisor, affiliate, fields } of links) {
          const [relationship_type, effective_from, role, to] = fields.split('\t');
          if (!(effective_from <= today && (!to || to > today))) continue;
          const row = { supervisor, affiliate, page_key: inForceKey(known.get(affiliate)!.sortKey, affiliate, { relationship_type, effective_from, affiliate_role: role || null, effective_to: to || null }), relationship_type, effective_from, affiliate_role: role || null, effective_to: to || null };
          await write(stream, `${csvRow(['supervisor', 'affiliate', 'supervisor', 'page_key', 'relationship_type', 'effective_from', 'affiliate_role', 'effective_to'], row)}\n`);
        }
        await ended(stream);
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
        const roster = importRoster(links, (id) => known.get(id)!.n, known.size);
        await withRosterFields(file.path, own, known, roster);
        fs.rmSync(file.path, { force: true });
        await writeRosterDays(rosterDaysFile, roster);
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
      if (kind === 'credentials') await readCredentials(own, known, (search ??= fs.createWriteStream(searchFile)));
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
      const out = (search ??= fs.createWriteStream(searchFile));
      const linked = new Set<string>();
      const statementRows = (name: string) => statements.filter((s) => s.query === queries.get(name)).flatMap((s) => s.params.rows as Record<string, string>[]);
      for (const r of statementRows('import/upsert-relationships')) linked.add(r.affiliate_id);
      for (const r of statementRows('import/link-brokerage-context')) linked.add(r.id);
      const types = new Set<string>(BROKERAGE_RELATIONSHIP_TYPES);
      const columns = SEARCH_BROKER_COLUMNS as unknown as string[];
      let lines: string[] = [];
      for (const { supervisor, affiliate, fields } of links) {
        const [relationship_type, effective_from, , to] = fields.split('\t');
        if (linked.has(affiliate) || !types.has(relationship_type) || !effective_from) continue;
        lines.push(csvRow(columns, { state: known.get(affiliate)!.state, id: affiliate, effective_from, effective_to: to || null, names: known.get(supervisor)!.names }));
        if (lines.length === 1000) {
          await write(out, `${lines.join('\n')}\n`);
          lines = [];
        }
      }
      // A statement's row may name a credential no file holds (its MATCH finds nothing).
      const ids = [...linked].filter((id) => known.has(id));
      const states = [...new Set(ids.map((id) => known.get(id)!.state))];
      for (let i = 0; i < ids.length; i += 2000) {
        const chunk = ids.slice(i, i + 2000);
        for (const name of ['engine/neo4j/search-brokers-by-id', 'engine/neo4j/search-brokerages-by-id']) {
          for (const row of await graph.read(queries.get(name), { ids: chunk, states, g: 0, types: [...types] })) lines.push(csvRow(columns, row));
        }
      }
      if (lines.length) await write(out, `${lines.join('\n')}\n`);
      await ended(out);
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
      fs.writeFileSync(jurisdictionsFile, `code:ID(Jurisdiction)\n${jurisdictions.map((c) => `${c}\n`).join('')}`);
      // The in-force day, and the Migration nodes of the name grams' removal, of supervisor_id and
      // the roster marks on SUPERVISES (the links files carry them) and of the roster's day counts:
      // the schema and the first start do none of them again.
      const markers = [path.join(dir, 'in-force-day.csv'), path.join(dir, 'migrations.csv')];
      fs.writeFileSync(markers[0], `id:ID(InForceDay)${FIELD_SEPARATOR}date:date\nsupervises${FIELD_SEPARATOR}${today}\n`);
      fs.writeFileSync(markers[1], 'id:ID(Migration)\nno-name-grams\nsupervises-supervisor-id\nsupervises-list-key\nsupervises-transfer-marks\nroster-days\n');
      const options = [
        `--delimiter=${unicode(FIELD_SEPARATOR)}`,
        `--quote=${unicode(QUOTE)}`,
        `--array-delimiter=${unicode(NOTES_SEPARATOR)}`,
        '--id-type=string',
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
