import fs from 'node:fs';
import path from 'node:path';
import { SOURCES } from '../../domain/sources.js';
import type { RefreshSummary } from './refresh.js';

// A national refresh: every state folder under one root refreshed in turn, each as one ingest run
// (its own lease and retire guard), a failed state reported and the others still run.

/** One state's folder: its code (the folder's name) and the files of its snapshot. */
export interface StateFolder {
  state: string;
  folder: string;
  files: string[];
}

export type StateOutcome =
  | { state: string; files: string[]; landed: true; summary: RefreshSummary }
  | { state: string; files: string[]; landed: false; error: string };

/** The configured states, in the sources' order: a state folder of another name is refused. */
const CONFIGURED = [...new Set(Object.values(SOURCES).map((s) => s.state))];

/**
 * The state folders of `root`: each directory named by a configured state's code (any case), with
 * its files (not hidden, not in sub-folders), in the sources' order. Other directories come after,
 * by name, so that the summary says why they were not refreshed. A root without any is an error.
 */
export function stateFolders(root: string): StateFolder[] {
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${root} is not a folder`);
  const folders = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => {
      const folder = path.join(root, e.name);
      const files = fs
        .readdirSync(folder, { withFileTypes: true })
        .filter((f) => f.isFile() && !f.name.startsWith('.'))
        .map((f) => path.join(folder, f.name))
        .sort();
      return { state: e.name.toUpperCase(), folder, files };
    });
  if (!folders.length) throw new Error(`${root} holds no state folder (${CONFIGURED.map((s) => `${s}/`).join(', ')}: each holding that state's files)`);
  const rank = (s: string) => (CONFIGURED.includes(s) ? CONFIGURED.indexOf(s) : CONFIGURED.length);
  return folders.sort((a, b) => rank(a.state) - rank(b.state) || a.state.localeCompare(b.state));
}

/**
 * Refreshes each state folder in turn with `refreshState`; an error ends that state only. `onState`
 * is told before each state starts (its place among them) and when it ends.
 */
export async function refreshAll(
  folders: StateFolder[],
  refreshState: (f: StateFolder) => Promise<RefreshSummary>,
  onState?: (event: { at: number; of: number; folder: StateFolder; outcome?: StateOutcome }) => void,
): Promise<StateOutcome[]> {
  const outcomes: StateOutcome[] = [];
  for (const [i, f] of folders.entries()) {
    onState?.({ at: i + 1, of: folders.length, folder: f });
    const failed = (error: string): StateOutcome => ({ state: f.state, files: f.files, landed: false, error });
    let outcome: StateOutcome;
    if (!CONFIGURED.includes(f.state)) outcome = failed(`no configured source for ${f.state} (configured: ${CONFIGURED.join(', ')})`);
    else if (!f.files.length) outcome = failed(`${f.folder} holds no files`);
    else {
      try {
        outcome = { state: f.state, files: f.files, landed: true, summary: await refreshState(f) };
      } catch (err) {
        outcome = failed((err as Error).message);
      }
    }
    outcomes.push(outcome);
    onState?.({ at: i + 1, of: folders.length, folder: f, outcome });
  }
  return outcomes;
}
