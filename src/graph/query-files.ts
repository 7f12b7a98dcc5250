import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CYPHER_DIR = fileURLToPath(new URL('../../cypher/', import.meta.url));

/** Query files by name (path under cypher/ without extension), read once at start. */
export interface QueryFiles {
  get(name: string): string;
  names(): string[];
}

/**
 * A query's comment lines (`:param` ones included) blanked: a driver sends the text with every
 * call. Blank, not removed, so that a line number in an error or a test is the file's. Marker
 * lines (`// @load`, `// @from`: LadybugDB's bulk loads fill them in) stay.
 */
const withoutComments = (text: string) =>
  text
    .split('\n')
    .map((line) => (line.trimStart().startsWith('//') && !line.startsWith('// @') ? '' : line))
    .join('\n');

export function loadQueryFiles(dir: string = CYPHER_DIR): QueryFiles {
  const byName = new Map<string, string>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.cypher')) {
        byName.set(rel.slice(0, -'.cypher'.length).split(path.sep).join('/'), withoutComments(fs.readFileSync(path.join(dir, rel), 'utf8')));
      }
    }
  };
  walk('');
  return {
    get(name) {
      const text = byName.get(name);
      if (text === undefined) throw new Error(`missing query file cypher/${name}.cypher`);
      return text;
    },
    names: () => [...byName.keys()].sort(),
  };
}

/** The query file a query's text comes from, for metrics; `other(query)` (`other`) for a query no file holds. */
export function queryNamer(files: QueryFiles, other: (query: string) => string = () => 'other'): (query: string) => string {
  const known = new Map(files.names().map((name) => [files.get(name), name]));
  return (query) => known.get(query) ?? other(query);
}

/** Splits a schema file into statements (`;`-terminated, comment lines dropped). */
export function splitStatements(text: string): string[] {
  return withoutComments(text)
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}
