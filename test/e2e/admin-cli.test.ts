import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseEnv, ROOT, runScript } from '../helpers/processes.js';

/** The operator command line exactly as the README shows it: `npm run -s admin -- ...`. */
const adminThroughNpm = (dataDir: string, ...args: string[]) =>
  spawnSync('npm', ['run', '-s', 'admin', '--', ...args], { cwd: ROOT, env: { ...baseEnv(), DATA_DIR: dataDir }, encoding: 'utf8', timeout: 60_000 });
/** The script that npm script runs, without npm's own start (about half a CPU second a call). */
const admin = (dataDir: string, ...args: string[]) => runScript('src/cli/admin.ts', args, { DATA_DIR: dataDir }, 60_000);

describe('the operator command line on a data dir of its own', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-admin-'));
  const store = path.join(dataDir, 'accounts.pglite');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('when a data dir has no store then every command but accounts create says so, exits non-zero and creates nothing', () => {
    for (const [i, args] of [['accounts', 'list'], ['keys', 'list', 'a@example.com'], ['accounts', 'set-plan', 'a@example.com', '--plan', 'growth']].entries()) {
      const run = (i === 0 ? adminThroughNpm : admin)(dataDir, ...args, '--json');
      expect(run.status, args.join(' ')).not.toBe(0);
      expect(run.stderr).toContain(`no accounts store at ${store}`);
      expect(run.stdout).toBe('');
    }
    expect(fs.existsSync(store)).toBe(false);
  });

  it('when accounts create runs on it then the store is created, the command says where, and --json prints clean JSON', () => {
    const created = admin(dataDir, 'accounts', 'create', '--email', 'ops@example.com', '--plan', 'starter', '--json');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stderr).toContain(`created the accounts store at ${store}`);
    const out = JSON.parse(created.stdout) as { account: { email: string; plan: string }; key: { key: string } };
    expect(out.account).toMatchObject({ email: 'ops@example.com', plan: 'starter' });
    expect(out.key.key).toMatch(/^lvs_live_/);
    expect(fs.existsSync(store)).toBe(true);

    const listed = admin(dataDir, 'accounts', 'list', '--json');
    expect(listed.status, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { email: string }[]).map((a) => a.email)).toEqual(['ops@example.com']);
    expect(listed.stderr).not.toContain('created the accounts store');

    const refreshes = admin(dataDir, 'refreshes', 'list');
    expect(refreshes.status, refreshes.stderr).toBe(0);
    expect(refreshes.stdout.trim()).toBe('no refresh is running');
  });

  it('when the signing keys are rotated and one marked compromised then the key file holds each, private to its owner, and the list says which signs', () => {
    const first = admin(dataDir, 'signing-keys', 'rotate', '--json');
    expect(first.status, first.stderr).toBe(0);
    const second = admin(dataDir, 'signing-keys', 'rotate');
    expect(second.status, second.stderr).toBe(0);
    const kid = (JSON.parse(first.stdout) as { kid: string }).kid;
    expect(second.stdout).toMatch(/^key [\w-]{43} signs receipts from now on$/m);
    const marked = admin(dataDir, 'signing-keys', 'compromised', kid);
    expect(marked.status, marked.stderr).toBe(0);
    const listed = admin(dataDir, 'signing-keys', 'list', '--json');
    const keys = JSON.parse(listed.stdout) as { kid: string; status: string }[];
    expect(keys.map((k) => k.status).sort()).toEqual(['active', 'compromised']);
    expect(keys.find((k) => k.kid === kid)!.status).toBe('compromised');
    const file = path.join(dataDir, 'signing-keys.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { keys: unknown[] }).keys).toHaveLength(2);
    const unknown = admin(dataDir, 'signing-keys', 'compromised', 'no-such-kid');
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('no signing key no-such-kid');
  });
});
