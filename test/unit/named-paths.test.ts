import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every file a comment or a document names exists: a comment that points at a renamed or deleted
// file misleads the next reader. A name counts as found when a tracked file's path ends with it
// (comments name files from the repo root, from cypher/ or from their own folder).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const present = tracked.filter((f) => fs.existsSync(path.join(ROOT, f)));
// A file name with at least one folder or a dot-separated stem, ending in an extension the repo uses
// (and not going on with a dot and a word, as a setting's name does: dbms.cypher.min_replan_interval).
const NAMED = /(?<![\w/.-])((?:\.{1,2}\/)*\w[\w-]*(?:[./][\w-]+)*\.(?:ts|mjs|cjs|cypher|md|conf|yml|yaml|json|java|csv))(?![\w/-]|\.\w)/g;
// Without a folder only source files count: a bare data file name (CurrList.csv) is the state's, not ours.
const SOURCE = /\.(?:ts|mjs|cjs|cypher|md|java|conf|yml|yaml)$/;
// Paths that name what a user or a run makes, not files of the repo.
const NOT_REPO = /^(?:data\/|node_modules\/|tmp|RE_rgn|[A-Z_]+\/)|(?:^|\/)generated\/|(?:^|\/)(?:graph\.lbug|loaded\.json)$/;

/** The comment lines of a source file (// and block comments), or a document's whole text. */
function commentary(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  if (file.endsWith('.md')) return text.split('\n');
  return text.split('\n').filter((line) => /^\s*(?:\/\/|\*|\/\*)/.test(line) || /\s\/\/\s/.test(line));
}

function missing(file: string): string[] {
  const out = new Set<string>();
  for (const line of commentary(file)) {
    for (const match of line.matchAll(NAMED)) {
      const raw = match[1];
      const name = raw.replace(/^(?:\.{1,2}\/)+/, '');
      // Part of a URL: the whitespace-delimited word holding it has a scheme.
      const word = line.slice(line.lastIndexOf(' ', match.index) + 1, match.index + raw.length);
      if (NOT_REPO.test(name) || word.includes('://') || (!name.includes('/') && !SOURCE.test(name))) continue;
      const own = path.posix.normalize(path.posix.join(path.posix.dirname(file), raw));
      if (present.includes(own) || present.some((f) => f === name || f.endsWith(`/${name}`))) continue;
      out.add(raw);
    }
  }
  return [...out];
}

describe('files named in comments and documents', () => {
  it('when every source comment and document is read then each file it names exists', () => {
    // A proposed decision (a plan) names the files it would make; it is read once it is accepted.
    const proposed = (f: string) => f.startsWith('docs/decisions/') && /^Status: proposed/m.test(fs.readFileSync(path.join(ROOT, f), 'utf8'));
    const readers = present.filter((f) => /^(?:src|cypher|test|bench|tools|deploy|docs)\/.*\.(?:ts|mjs|cypher|md|java)$|^README\.md$|^\.ci\//.test(f) && !proposed(f));
    const stale = readers.flatMap((f) => missing(f).map((name) => `${f}: ${name}`));
    expect(stale).toEqual([]);
  });
});

describe("the README's layout", () => {
  it('when its layout block is read then it names every folder of src/, every module and every test folder', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /## Layout[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const folders = (dir: string) => fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    const listed = (prefix: string) => (new RegExp(`^${prefix}\\s+(.*)$`, 'm').exec(block)?.[1] ?? '').split(/,\s*/).map((w) => w.trim()).sort();
    expect(folders('src').filter((d) => !block.includes(`src/${d}/`))).toEqual([]);
    expect(listed('src/modules/')).toEqual(folders('src/modules'));
    expect(listed('test/')).toEqual(folders('test'));
  });
});
