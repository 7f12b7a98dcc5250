import { describe, expect, it } from 'vitest';
import { ParsedLinks, came, went } from '../../src/graph/neo4j/import-roster.js';

// The offline load's roster marks and day counts by the rules of roster-marks.cypher and
// roster-days.cypher (the offline import test compares a whole store with the import over Bolt).
const ids = ['A', 'B', 'C', 'D', 'E', 'F', 'x', 'y'];
const link = (supervisor: string, affiliate: string, type: string, from: string, to = '', role = '') => ({ supervisor, affiliate, fields: [type, from, role, to].join('\t') });

describe("an offline load's roster marks", () => {
  const links = [
    // A ends on 2026-01-01; B starts 90 days later (in the window), C 91 days later (out of it).
    link('A', 'x', 'supervising_broker', '2025-01-01', '2026-01-01'),
    link('B', 'x', 'supervising_broker', '2026-04-01'),
    link('C', 'x', 'supervising_broker', '2026-04-02'),
    // Another type, and the same supervisor again: neither is a transfer.
    link('D', 'x', 'team_lead', '2026-01-01'),
    link('A', 'x', 'supervising_broker', '2026-01-01'),
    // A start on the very day the other ended.
    link('E', 'y', 'supervising_broker', '2024-01-01', '2025-06-30'),
    link('F', 'y', 'supervising_broker', '2025-06-30', '2025-06-30'),
  ];
  const parsed = new ParsedLinks();
  for (const l of links) parsed.add(ids.indexOf(l.supervisor), ids.indexOf(l.affiliate), l.fields);
  const marks = parsed.marks(ids.length);

  it('when another supervisor of the same type ended on the start or up to 90 days before then the relationship came; went is the same window after an end', () => {
    expect([...marks].map((m) => ({ came: came(m), went: went(m) }))).toEqual([
      { came: false, went: true },
      { came: true, went: false },
      { came: false, went: false },
      { came: false, went: false },
      { came: false, went: false },
      { came: false, went: true },
      { came: true, went: false },
    ]);
  });

  it('when the days are counted then each supervisor has a row per start or end day, and an end on its start day moves no count in force', () => {
    const days: unknown[][] = [];
    parsed.days(ids.length, marks, (supervisor, date, ...counts) => days.push([ids[supervisor], parsed.dateOf(date), ...counts]));
    days.sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    expect(days).toEqual([
      ['A', '2025-01-01', 1, 0, 0, 0, 1],
      ['A', '2026-01-01', 1, 1, 0, 1, 0],
      ['B', '2026-04-01', 1, 0, 1, 0, 1],
      ['C', '2026-04-02', 1, 0, 0, 0, 1],
      ['D', '2026-01-01', 1, 0, 0, 0, 1],
      ['E', '2024-01-01', 1, 0, 0, 0, 1],
      ['E', '2025-06-30', 0, 1, 0, 1, -1],
      ['F', '2025-06-30', 1, 1, 1, 0, 0],
    ]);
  });
});

describe("an offline load's parsed relationships", () => {
  it('when a relationship is listed again then its later fields win, in its fields, marks and days', () => {
    const parsed = new ParsedLinks();
    // 0 supervises 2 until 2026-01-01; 1 supervises 2 from 2026-03-01, listed again from the same start with a role.
    parsed.add(0, 2, ['supervising_broker', '2025-01-01', '', '2026-01-01'].join('\t'));
    const n = parsed.add(1, 2, ['supervising_broker', '2026-03-01', '', ''].join('\t'));
    parsed.set(n, ['supervising_broker', '2026-03-01', 'salesperson', '2026-06-30'].join('\t'));
    expect(parsed.fields(n)).toEqual({ type: 'supervising_broker', from: '2026-03-01', role: 'salesperson', to: '2026-06-30' });
    const marks = parsed.marks(3);
    expect([...marks].map((m) => [came(m), went(m)])).toEqual([[false, true], [true, false]]);
    const days: unknown[][] = [];
    parsed.days(3, marks, (supervisor, date, ...counts) => days.push([supervisor, parsed.dateOf(date), ...counts]));
    expect(days.filter((d) => d[0] === 1)).toEqual([[1, '2026-03-01', 1, 0, 1, 0, 1], [1, '2026-06-30', 0, 1, 0, 0, -1]]);
  });

  it('when a relationship has no start then it counts only its end and marks nothing by its start', () => {
    const parsed = new ParsedLinks();
    parsed.add(0, 2, ['supervising_broker', '2025-01-01', '', '2025-12-31'].join('\t'));
    parsed.add(1, 2, ['supervising_broker', '', '', '2026-02-01'].join('\t'));
    const marks = parsed.marks(3);
    expect([...marks].map((m) => [came(m), went(m)])).toEqual([[false, false], [false, false]]);
    const days: unknown[][] = [];
    parsed.days(3, marks, (supervisor, date, ...counts) => days.push([supervisor, parsed.dateOf(date), ...counts]));
    expect(days.filter((d) => d[0] === 1)).toEqual([[1, '2026-02-01', 0, 1, 0, 0, 0]]);
  });
});
