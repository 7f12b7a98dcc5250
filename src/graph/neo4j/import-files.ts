// Neo4j's offline importer (`neo4j-admin database import full`) as a sink of the canonical
// import's bulk path: a first load into a store that does not exist yet, for datasets too large to
// send over Bolt in reasonable time (docs/decisions/0008).
// The files keep the bulk dialect (control-character delimiter and quote, lists joined by
// NOTES_SEPARATOR) with Neo4j's typed headers; statements over rows no file holds wait for the
// store to be up (runStatements).
import fs from 'node:fs';
import path from 'node:path';
import type { BulkFile, BulkKind, BulkSink, GraphEngine, Params } from '../graph-port.js';
import { FIELD_SEPARATOR, NOTES_SEPARATOR, QUOTE, csvHeader } from '../bulk-file.js';

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

/** The importer's input, written into `dir` (which must exist). */
export function neo4jImportFiles(dir: string) {
  const files = new Map<BulkKind, string[]>();
  const statements: { query: string; params: Params }[] = [];
  let lineBreaks = false;
  const sink: BulkSink = {
    header: (kind, columns, dates) => csvHeader(columns.map((c) => layout(kind).typed[c] ?? (dates.includes(c) ? `${c}:date` : c))),
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
      ];
      for (const [kind, paths] of files) {
        const { node, relationship } = layout(kind);
        options.push(node ? `--nodes=${node}=${paths.join(',')}` : `--relationships=${relationship}=${paths.join(',')}`);
      }
      return options;
    },
  };
}
