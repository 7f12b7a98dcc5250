// Neo4j's offline importer (`neo4j-admin database import full`) as a sink of the canonical
// import's bulk path: a first load into a store that does not exist yet, for datasets too large to
// send over Bolt in reasonable time (docs/decisions/0008).
// The files keep the bulk dialect (control-character delimiter and quote, lists joined by
// NOTES_SEPARATOR) with Neo4j's typed headers; statements over rows no file holds wait for the
// store to be up (runStatements).
import fs from 'node:fs';
import path from 'node:path';
import type { BulkFile, BulkKind, BulkSink, GraphEngine, Params, ParsedRows } from '../graph-port.js';
import { CREDENTIAL_COLUMNS, FIELD_SEPARATOR, NOTES_SEPARATOR, QUOTE, bulkFields, csvHeader, csvRow, readBulkRecords } from '../bulk-file.js';
import { inForceKey } from './keys.js';
import { LIST_FIELDS } from './list-fields.js';

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

const [ID, SORT_KEY] = ['id', 'sort_key'].map((c) => CREDENTIAL_COLUMNS.indexOf(c));

/** Records each credential's sort key of a credentials file into `sortKeys` (the in-force keys need them). */
async function readSortKeys(credentials: string, sortKeys: Map<string, string>) {
  let header = true;
  for await (const records of readBulkRecords(credentials)) {
    for (const record of records) {
      if (header) {
        header = false;
        continue;
      }
      const fields = bulkFields(record);
      sortKeys.set(fields[ID]!, fields[SORT_KEY]!);
    }
  }
}

/**
 * The importer's input, written into `dir` (which must exist). `today`: the day the
 * SUPERVISES_IN_FORCE relationships hold the links in force on.
 */
export function neo4jImportFiles(dir: string, today = new Date().toISOString().slice(0, 10)) {
  const files = new Map<BulkKind, string[]>();
  // Credentials' sort keys (read back from their files) and the relationships as parsed: the
  // in-force relationships written once all are known (cypher/engine/neo4j/in-force-add.cypher).
  const sortKeys = new Map<string, string>();
  const credentialIds: string[] = [];
  const links: { supervisor: string; affiliate: string; fields: string }[] = [];
  const inForceFile = path.join(dir, 'in-force.csv');
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
          const row = { supervisor, affiliate, page_key: inForceKey(sortKeys.get(affiliate)!, affiliate, { relationship_type, effective_from, affiliate_role: role || null, effective_to: to || null }), relationship_type, effective_from, affiliate_role: role || null, effective_to: to || null };
          if (!stream.write(`${csvRow(['supervisor', 'affiliate', 'supervisor', 'page_key', 'relationship_type', 'effective_from', 'affiliate_role', 'effective_to'], row)}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
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
      try {
        fs.renameSync(file.path, own);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        fs.copyFileSync(file.path, own);
      }
      files.set(kind, [...(files.get(kind) ?? []), own]);
      lineBreaks ||= file.lineBreaks;
      if (kind === 'credentials') await readSortKeys(own, sortKeys);
    },
    async run(query, params) {
      statements.push({ query, params });
    },
  };
  return {
    sink,
    statements,
    /** Runs the statements, in order, on the imported store once it is up and its schema applied. */
    async runStatements(graph: GraphEngine) {
      for (const { query, params } of statements) await graph.writeTransaction((t) => t.run(query, params));
    },
    /**
     * The options of `neo4j-admin database import full` over the files (tools/neo4j/run.mjs
     * import). `jurisdictions`: the codes credentials may name, as Jurisdiction nodes whose other
     * properties the statements set.
     */
    importOptions(jurisdictions: string[]): string[] {
      const jurisdictionsFile = path.join(dir, 'jurisdictions.csv');
      fs.writeFileSync(jurisdictionsFile, `code:ID(Jurisdiction)\n${jurisdictions.map((c) => `${c}\n`).join('')}`);
      // The in-force day, and the Migration node of the name grams' removal: the schema does neither again.
      const markers = [path.join(dir, 'in-force-day.csv'), path.join(dir, 'migrations.csv')];
      fs.writeFileSync(markers[0], `id:ID(InForceDay)${FIELD_SEPARATOR}date:date\nsupervises${FIELD_SEPARATOR}${today}\n`);
      fs.writeFileSync(markers[1], 'id:ID(Migration)\nno-name-grams\n');
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
      ];
      for (const [kind, paths] of files) {
        const { node, relationship } = layout(kind);
        options.push(node ? `--nodes=${node}=${paths.join(',')}` : `--relationships=${relationship}=${paths.join(',')}`);
      }
      return options;
    },
  };
}
