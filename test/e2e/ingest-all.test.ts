import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateNational } from '../../bench/national-data.js';
import { STATE_FILE, STATE_LAYOUTS, writeStateSnapshots } from '../../bench/state-files.js';
import { stateFolders } from '../../src/ingest/refresh/refresh-all.js';
import { resolveFormat } from '../../src/ingest/sources/index.js';
import { runScript } from '../helpers/processes.js';

// The national refresh (`npm run ingest -- --all`) over the bench's state files: each state's
// licences of a small generated national dataset in that state's own layout.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-ingest-all-'));
const dataDir = path.join(work, 'data');
const [first, next] = [path.join(work, 'first'), path.join(work, 'next')];
let written: Record<string, { first: number; next: number }>;
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  const dataset = path.join(work, 'dataset');
  await generateNational(dataset, { credentials: 4000, seed: 7 });
  written = await writeStateSnapshots(dataset, first, next);
}, 120_000);

const ingestAll = (...args: string[]) => runScript('src/cli/ingest.ts', ['--all', ...args], { DATA_DIR: dataDir, DEMO_DATA: 'false' }, 300_000);

describe('the bench writes each state in its own layout', () => {
  it('when each file is read by its state\'s parser then every row maps, none rejected', async () => {
    for (const state of STATE_LAYOUTS) {
      for (const [root, side] of [[first, 'first'], [next, 'next']] as const) {
        const file = path.join(root, state, STATE_FILE[state]);
        const format = resolveFormat(file);
        expect(format.state).toBe(state);
        let rows = 0;
        const errors: string[] = [];
        for await (const batch of format.rows(file)) {
          for (const r of batch) {
            rows += 1;
            if (r.error) errors.push(`${r.line}: ${r.error}`);
          }
        }
        expect(errors, `${state} ${side}`).toEqual([]);
        expect(rows, `${state} ${side}`).toBe(written[state][side]);
        expect(rows, `${state} ${side}`).toBeGreaterThan(10);
      }
    }
  });
});

describe('npm run ingest -- --all', () => {
  it('when the folder holds files rather than state folders then it is refused before anything runs', () => {
    expect(() => stateFolders(path.join(first, 'TX'))).toThrow(/holds no state folder \(TX\/, FL\/, CA\/, CT\/, NY\/: /);
    expect(() => stateFolders(path.join(work, 'nowhere'))).toThrow(/is not a folder/);
  });


  it('when one state fails then the others land, the summary says which, and the exit code is 1; the next snapshot lands whole with 0', () => {
    // A root whose CA folder holds NY's file, and a folder of no configured state.
    const broken = path.join(work, 'broken');
    fs.cpSync(first, broken, { recursive: true });
    fs.rmSync(path.join(broken, 'CA'), { recursive: true });
    fs.mkdirSync(path.join(broken, 'CA'));
    fs.copyFileSync(path.join(first, 'NY', STATE_FILE.NY), path.join(broken, 'CA', STATE_FILE.NY));
    fs.mkdirSync(path.join(broken, 'zz'));
    fs.writeFileSync(path.join(broken, 'zz', 'rows.csv'), 'a,b\n');

    const run = ingestAll('--snapshot', '2026-11-08', '--json', broken);
    expect(run.status, run.stderr).toBe(1);
    const out = JSON.parse(run.stdout) as { landed: number; states: { state: string; landed: boolean; error?: string; summary?: Record<string, number> }[] };
    // The sources' order, then the unknown folder.
    expect(out.states.map((s) => [s.state, s.landed])).toEqual([['TX', true], ['FL', true], ['CA', false], ['CT', true], ['NY', true], ['ZZ', false]]);
    expect(out.landed).toBe(4);
    expect(out.states[2].error).toMatch(/nys-dos-csv file of NY, not CA/);
    expect(out.states[5].error).toMatch(/no configured source for ZZ/);
    for (const s of out.states.filter((x) => x.landed)) expect(s.summary).toMatchObject({ rows_read: written[s.state].first, inserted: expect.any(Number), rejected: 0 });
    // Progress goes to stderr, a line as each state starts and ends.
    expect(run.stderr).toMatch(/\[3\/6\] CA: 1 file\(s\) in .*\n[\s\S]*\[3\/6\] CA  failed: /);

    // The next snapshot: every state lands, CA for the first time, the others with their changes.
    const again = ingestAll('--snapshot', '2026-11-15', next);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^national refresh: 5 of 5 states landed in [\d.]+ s$/m);
    for (const state of ['TX', 'FL', 'CA', 'CT', 'NY']) expect(again.stdout).toMatch(new RegExp(`^  ${state}  landed  [\\d,]+ rows in `, 'm'));
    const counts = (state: string) => {
      const line = again.stdout.split('\n').find((l) => l.startsWith(`  ${state}  landed`))!;
      return Object.fromEntries([...line.matchAll(/(inserted|updated|unchanged|left the source|opened|closed) (\d+)/g)].map((m) => [m[1], Number(m[2])]));
    };
    // TX and FL list every licence: a tenth change status, a twentieth address, people move employer.
    for (const state of ['TX', 'FL']) expect(counts(state)).toMatchObject({ inserted: 0, updated: expect.toSatisfy((n: number) => n > written[state].next / 20), 'left the source': 0, opened: expect.toSatisfy((n: number) => n > 0), closed: expect.toSatisfy((n: number) => n > 0) });
    expect(counts('CA')).toMatchObject({ inserted: written.CA.next, updated: 0 });
    // NY and CT list current licences only: the ones that lapsed leave the file.
    for (const state of ['NY', 'CT']) expect(counts(state)['left the source']).toBeGreaterThan(0);
  }, 600_000);
});
