import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CYPHER_DIR = fileURLToPath(new URL('../../cypher/', import.meta.url));

/** Query files by name (path under cypher/ without extension), read once at start. */
export interface QueryFiles {
  get(name: string): string;
  names(): string[];
}

export function loadQueryFiles(dir: string = CYPHER_DIR): QueryFiles {
  const byName = new Map<string, string>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.cypher')) {
        byName.set(rel.slice(0, -'.cypher'.length).split(path.sep).join('/'), fs.readFileSync(path.join(dir, rel), 'utf8'));
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

/**
 * The query file a query's text comes from, for metrics: the file itself, or for a query composed
 * from a file's filter fragments (filteredQuery) the file whose text up to `// @filters` it
 * starts with; `other` for a query no file holds. Answers are kept for the first 1,000 texts.
 */
export function queryNamer(files: QueryFiles): (query: string) => string {
  const known = new Map(files.names().map((name) => [files.get(name), name]));
  const limit = known.size + 1000;
  const heads = files.names().flatMap((name) => {
    const text = files.get(name);
    const at = text.indexOf('// @filters');
    return at > 0 ? [{ head: text.slice(0, at), name }] : [];
  });
  return (query) => {
    let name = known.get(query);
    if (name === undefined) {
      name = heads.find((h) => query.startsWith(h.head))?.name ?? 'other';
      if (known.size < limit) known.set(query, name);
    }
    return name;
  };
}

/** Splits a schema file into statements (`;`-terminated, `//` comment lines dropped). */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A query file with optional filter fragments. The file holds the full query with a
 * `// @filters` marker line; fragments live in a `.filters.cypher` file as `// @fragment key`
 * headed blocks. Filters are composed from these fixed texts only, never from caller input.
 */
export interface FilteredQuery {
  build(active: { key: string; rename?: Record<string, string> }[]): string;
  fragmentKeys(): string[];
}

export function filteredQuery(files: QueryFiles, name: string, fragmentsName = `${name}.filters`): FilteredQuery {
  const base = files.get(name);
  if (!base.includes('// @filters')) throw new Error(`cypher/${name}.cypher has no // @filters marker`);
  const fragments = parseFragments(files.get(fragmentsName));
  return {
    build(active) {
      const parts = active.map(({ key, rename }) => {
        let text = fragments.get(key);
        if (text === undefined) throw new Error(`cypher/${fragmentsName}.cypher has no fragment ${key}`);
        for (const [from, to] of Object.entries(rename ?? {})) {
          text = text.replace(new RegExp(`\\$${from}\\b`, 'g'), `$${to}`);
        }
        return text;
      });
      return base.replace('// @filters', parts.join('\n'));
    },
    fragmentKeys: () => [...fragments.keys()],
  };
}

export function parseFragments(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let key: string | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (key) out.set(key, lines.join('\n').trim());
  };
  for (const line of text.split('\n')) {
    const m = /^\/\/ @fragment (\S+)/.exec(line.trim());
    if (m) {
      flush();
      key = m[1];
      lines = [];
    } else if (key && !line.trim().startsWith('//')) lines.push(line);
  }
  flush();
  return out;
}
