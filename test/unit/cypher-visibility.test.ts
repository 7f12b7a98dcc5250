import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CYPHER_DIR, loadQueryFiles } from '../../src/graph/query-files.js';

// What a Neo4j read sees of a refresh's versions (docs/graph.md, Versions) is written out in each
// query file, so that each runs as it stands in Neo4j Browser with its `:param` lines; this rule
// holds every copy to the one text below, so that a copy that drifts fails, naming its line.
// It covers every query file but the schema, engine/neo4j/refresh/, versions/ and WRITES: those
// set, end, copy, restore or collect versions rather than read one generation. (The shared files,
// run on LadybugDB too, hold no versioned field at all.)

const files = loadQueryFiles();
const WRITES = ['engine/neo4j/in-force-add', 'engine/neo4j/in-force-drop', 'engine/neo4j/drop-snapshot-pairs', 'engine/neo4j/roster-marks', 'engine/neo4j/roster-days', 'engine/neo4j/roster-day-pairs', 'engine/neo4j/supervisors-of'];
const covered = files.names().filter((n) => !n.startsWith('schema/') && !/^engine\/neo4j\/(?:refresh|versions)\//.test(n) && !WRITES.includes(n));

/** A versioned field or generation parameter: where a visibility condition is written. */
const VERSIONED = /\$(?:g|published)\b|\b(?:vf|vt|sg|pg|tg|tg0)\b|\b[sp]_\w+/g;

/** The public fields a refresh may leave pending (p_*: overlay-credentials.cypher). */
const PENDING = ['license_number_display', 'license_type_display', 'status', 'status_normalized', 'issue_date', 'expiration_date', 'address_kind', 'address_line1', 'address_line2', 'address_city', 'address_county', 'address_region', 'address_postal_code', 'address_country', 'source'];

/** The canonical text of each condition, as a function of its variables. */
type Form = (...variables: string[]) => string;

/**
 * A credential's touch generations: its snapshot pair's (sg: a touch of its own values, or an
 * overlay) and its listing mark's (tg, or tg0, the last published one, while tg is newer than $g):
 * touch-listed.cypher. The `stamp` read next has no versioned field.
 */
const generations: Form = (x) => `CASE WHEN ${x}.sg <= $g THEN ${x}.sg END AS sgv, CASE WHEN ${x}.tg <= $g THEN ${x}.tg WHEN ${x}.tg0 <= $g THEN ${x}.tg0 END AS tgv`;
/** Each touched field: from the run's stamp where the listing mark is the newer, else the pair, else its own. */
const TOUCHED: Record<string, Form> = {
  'touched snapshot_date': (x) => `CASE WHEN stamp IS NOT NULL THEN stamp[0] WHEN sgv IS NOT NULL THEN ${x}.s_snapshot_date ELSE ${x}.snapshot_date END`,
  'touched last_verified': (x) => `CASE WHEN stamp IS NOT NULL THEN stamp[1] WHEN sgv IS NOT NULL THEN ${x}.s_last_verified ELSE ${x}.last_verified END`,
  'touched data_source_notes': (x) =>
    `CASE WHEN stamp IS NOT NULL THEN [stamp[2]] + (CASE WHEN sgv IS NOT NULL THEN ${x}.s_notes ELSE ${x}.data_source_notes END)[1..] WHEN sgv IS NOT NULL THEN ${x}.s_notes ELSE ${x}.data_source_notes END`,
};

/** Read at the published generation $g (every read the API serves). */
const READ: Record<string, Form> = {
  /**
   * A node or relationship $g sees: from its generation vf, until vt (coalesce keeps index seeks
   * whole); p, a property every version has, read after them keeps out one deleted while it is read.
   */
  visible: (x, p) => `coalesce(${x}.vf, CASE WHEN ${x}.${p} IS NULL THEN $g + 1 ELSE 0 END) <= $g AND coalesce(${x}.vt, CASE WHEN ${x}.${p} IS NULL THEN $g ELSE $g + 1 END) > $g`,
  /** A credential's touched fields, as of the generations it shows. */
  'touch generations': generations,
  ...TOUCHED,
  /** A credential's pending values, from generation pg on (records are lists: licensees.cypher). */
  pending: (x) => `CASE WHEN ${x}.pg <= $g THEN [${PENDING.map((f) => `${x}.p_${f}`).join(', ')}] END`,
  /** The status as the search filters read it. */
  pendingStatus: (x) => `CASE WHEN ${x}.pg <= $g THEN ${x}.p_status_normalized ELSE ${x}.status_normalized END`,
  /** The in-force relationships of credential s that $g does not see (visible's complement), off its degree. */
  unseenInForce: (h, s) =>
    [['vf', '>'], ['vt', '<=']]
      .map(([field, op]) => `COUNT { MATCH ()-[${h}:SUPERVISES_IN_FORCE]->() USING INDEX SEEK ${h}:SUPERVISES_IN_FORCE(supervisor_id, ${field}) WHERE ${h}.supervisor_id = $id AND ${h}.${field} ${op} $g AND startNode(${h}) = ${s} }`)
      .join(' - '),
};

/** Read inside a refresh run, as the run has written the graph (its own $g: nothing lies between it and $published). */
const RUN: Record<string, Form> = {
  'touch generations': generations,
  ...TOUCHED,
  /** A link no run has ended, the run's own included (what earlier runs ended is collected before a run starts). */
  openLink: (r) => `${r}.vt IS NULL`,
};
/**
 * The analysts' queries (cypher/analyst/), run in Neo4j Browser as they stand: the generation they
 * read is the published one, read first from the Snapshot node into `g` (GENERATION), not a parameter.
 */
const ANALYST: Record<string, Form> = {
  visible: (x, p) => READ.visible(x, p).replaceAll('$g', 'g'),
};
const GENERATION = "OPTIONAL MATCH (snapshot:Snapshot {id: 'graph'})\nWITH coalesce(snapshot.generation, 0) AS g";

/** The files read in a run (src/graph/neo4j/writes.ts), which see the run's view alone. */
const RUN_VIEW = ['engine/neo4j/credentials'];

/** The form's text as a pattern: each variable a word (the same one each time), each space any white space. */
function pattern(form: Form): RegExp {
  const marks = Array.from({ length: form.length }, (_, i) => String.fromCharCode(1 + i));
  let source = form(...marks)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/ /g, '\\s+');
  marks.forEach((mark, i) => {
    let first = true;
    source = source.replaceAll(mark, () => (first ? ((first = false), `(?<v${i}>\\w+)`) : `\\k<v${i}>`));
  });
  return new RegExp(source, 'g');
}

/** The places in `text` where a versioned field or parameter is not part of one of `forms`, with their line numbers. */
function strays(text: string, forms: Record<string, Form>): { line: number; found: string[]; text: string }[] {
  const lines = text.split('\n');
  // Comment lines (:param ones included) are not run; blanked, not removed, so that lines keep their numbers.
  let masked = lines.map((l) => (l.trim().startsWith('//') ? '' : l)).join('\n');
  for (const form of Object.values(forms)) masked = masked.replace(pattern(form), (m) => m.replace(/[^\n]/g, ' '));
  return masked.split('\n').flatMap((l, i) => {
    const found = [...l.matchAll(VERSIONED)];
    if (!found.length) return [];
    const at = found[0].index!;
    return [{ line: i + 1, found: found.map((m) => m[0]), text: lines[i].slice(Math.max(0, at - 60), at + 80).trim() }];
  });
}

const analyst = (name: string) => name.startsWith('analyst/');
const formsOf = (name: string) => (analyst(name) ? ANALYST : RUN_VIEW.includes(name) ? RUN : READ);

describe('the visibility conditions of Neo4j reads', () => {
  it('when a copy drifts from its canonical form then the rule names its line', () => {
    const read = (where: string) => `MATCH (c:LicenseCredential {id: $id})\n// :param g => 0\nWITH c WHERE ${where}\nRETURN c.id AS id`;
    expect(strays(read(READ.visible('c', 'id')), READ)).toEqual([]);
    // Line breaks and indentation are free; the variable is any, but the same throughout.
    expect(strays(read(READ.visible('r2', 'relationship_type').replace(' AND ', '\n    AND ')), READ)).toEqual([]);
    // The form before a deleted version was kept out.
    expect(strays(read('coalesce(c.vf, 0) <= $g AND coalesce(c.vt, $g + 1) > $g'), READ)).toHaveLength(1);
    expect(strays(read('coalesce(c.vf, 0) < $g AND coalesce(c.vt, $g + 1) > $g'), READ)).toEqual([{ line: 3, found: ['vf', '$g', 'vt', '$g', '$g'], text: expect.any(String) }]);
    expect(strays(read('coalesce(c.vf, 0) <= $g AND coalesce(s.vt, $g + 1) > $g'), READ)).toHaveLength(1);
    expect(strays(read('c.vt IS NULL'), READ)).toHaveLength(1);
    const touch = `WITH c, ${generations('c')}\nRETURN c {snapshot_date: ${TOUCHED['touched snapshot_date']('c')}} AS record`;
    expect(strays(touch, RUN)).toEqual([]);
    // A generation's bound moved, or the listing mark read without its published one.
    expect(strays(touch.replace('c.sg <= $g', 'c.sg < $g'), RUN)).toHaveLength(1);
    expect(strays(touch.replace(' WHEN c.tg0 <= $g THEN c.tg0', ''), RUN)).toHaveLength(1);
    expect(strays(`RETURN c {snapshot_date: CASE WHEN c.sg <= $g THEN c.s_snapshot_date ELSE c.snapshot_date END} AS record`, RUN)).toHaveLength(1);
  });

  it('when the query files are read then every versioned field and generation is in a canonical form', () => {
    const found = covered.flatMap((name) => strays(files.get(name), formsOf(name)).map((s) => `cypher/${name}.cypher:${s.line}: ${[...new Set(s.found)].join(', ')} outside the canonical forms, in "${s.text}"`));
    expect(found).toEqual([]);
  });

  it('when the query files are read then every canonical form is used, and docs/graph.md quotes the visible one', () => {
    for (const [forms, names] of [
      [READ, covered.filter((n) => !RUN_VIEW.includes(n) && !analyst(n))],
      [RUN, RUN_VIEW],
      [ANALYST, covered.filter(analyst)],
    ] as const) {
      for (const [key, form] of Object.entries(forms)) expect(names.some((n) => pattern(form).test(files.get(n))), `no query file writes ${key}`).toBe(true);
    }
    expect(fs.readFileSync(new URL('../../docs/graph.md', import.meta.url), 'utf8')).toContain(READ.visible('x', 'id'));
  });

  it('when an analyst query reads versions then it reads the published generation from the Snapshot node first', () => {
    for (const name of covered.filter(analyst)) {
      const text = files.get(name);
      if (VERSIONED.test(text)) expect(text, `cypher/${name}.cypher`).toContain(GENERATION);
      VERSIONED.lastIndex = 0;
    }
  });

  it('when a query file reads a generation then it declares it for Neo4j Browser', () => {
    // Fragment files run inside the queries that declare their parameters.
    for (const name of covered.filter((n) => !n.endsWith('.filters'))) {
      // As written: the loaded text has its comment lines blanked.
      const text = fs.readFileSync(`${CYPHER_DIR}${name}.cypher`, 'utf8');
      for (const param of ['g', 'published']) {
        if (new RegExp(`\\$${param}\\b`).test(text)) expect(text, `cypher/${name}.cypher uses $${param} without // :param ${param} =>`).toMatch(new RegExp(`^// :param ${param} => `, 'm'));
      }
    }
  });
});
