// The formats of the state sources' files, and the lookup of a file's parser (the sources
// themselves, as data, are domain/sources.ts).
import { CA_DRE } from './ca-dre.js';
import { CT_DCP } from './ct-dcp.js';
import { FL_DBPR } from './fl-dbpr.js';
import { NY_DOS } from './ny-dos.js';
import type { SourceFormat } from './source-types.js';
import { fileHead } from './source-util.js';
import { TX_TREC_CSV, TX_TRECFILE } from './tx-trec.js';

export const SOURCE_FORMATS: SourceFormat[] = [TX_TREC_CSV, TX_TRECFILE, FL_DBPR, CA_DRE, NY_DOS, CT_DCP];

/** The format by name, or the one whose detector recognises the file. */
export function resolveFormat(file: string, name?: string): SourceFormat {
  if (name) {
    const found = SOURCE_FORMATS.find((f) => f.format === name);
    if (!found) throw new Error(`unknown format ${name}; known: ${SOURCE_FORMATS.map((f) => f.format).join(', ')}`);
    return found;
  }
  const head = fileHead(file);
  const found = SOURCE_FORMATS.filter((f) => f.detect(head));
  if (found.length !== 1) {
    throw new Error(`cannot tell the format of ${file}; give --format (${SOURCE_FORMATS.map((f) => f.format).join(', ')})`);
  }
  return found[0];
}
