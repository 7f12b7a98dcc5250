// Given names and the nicknames they go by, from the kept carltonnorthern/nicknames table
// (nickname-table.ts, generated). Two names are the same given name when one group holds both: a
// nickname shared by two formal names (AL: ALBERT, ALFRED) relates each to it, never the two formal
// names to each other. Spelling variants (JON/JOHN) are not nicknames: they are typing slips or
// another name.
import { NICKNAME_GROUPS } from './nickname-table.js';

const groupsOf = new Map<string, number[]>();
NICKNAME_GROUPS.trim()
  .split('\n')
  .forEach((line, i) => {
    for (const name of line.trim().split(/\s+/)) groupsOf.set(name, [...(groupsOf.get(name) ?? []), i]);
  });

/** Whether two different upper-case given names are one name: a formal name and its nickname, or two nicknames of one name. */
export function sameGivenName(a: string, b: string): boolean {
  if (a === b) return false;
  const ga = groupsOf.get(a);
  const gb = groupsOf.get(b);
  return !!ga && !!gb && ga.some((g) => gb.includes(g));
}
