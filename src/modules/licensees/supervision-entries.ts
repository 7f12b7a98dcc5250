import type { SupervisionEntry } from '../../domain/credential.js';

// A credential's supervising relationships as the engines give them: LadybugDB's read-model
// entries (tab-separated lines), or Neo4j's traversed maps, in the same order.

/** Entries of a read model: one string of line-joined entries (LadybugDB) or a list (Neo4j). */
export const readModelEntries = (value: unknown): string[] => (value == null ? [] : Array.isArray(value) ? value : String(value).split('\n'));

/** A credential's supervision: entries of its supervisor list (LadybugDB), or maps (Neo4j's traversal). */
export function supervisionEntries(value: unknown): SupervisionEntry[] {
  if (Array.isArray(value) && value.length && typeof value[0] === 'object') {
    return (value as SupervisionEntry[])
      .map((e) => ({ e: { ...e, effective_to: e.effective_to ?? null }, text: entryText(e) }))
      .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .map(({ e }) => e);
  }
  return readModelEntries(value).map((line) => {
    const [supervisor_id, affiliate_role, relationship_type, effective_from, effective_to] = line.split('\t');
    return { supervisor_id, affiliate_role, relationship_type, effective_from, effective_to: effective_to || null };
  });
}

/** Supervisor lists hold their entries sorted as text: traversed ones go in the same order. */
const entryText = (e: SupervisionEntry) => [e.supervisor_id, e.affiliate_role, e.relationship_type, e.effective_from, e.effective_to ?? ''].join('\t');
