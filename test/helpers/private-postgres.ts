import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, tempDir } from './local-neo4j.js';

// A PostgreSQL cluster of a test's own (initdb in a temporary folder, its own port), for tests
// that stop and start it; never the shared server other files use.

/** The folder of initdb and pg_ctl, or undefined. */
function pgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const version = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version && path.join(root, version, 'bin');
  return bin && fs.existsSync(path.join(bin, 'initdb')) ? bin : undefined;
}

const asRoot = process.getuid?.() === 0;

/** Why a private cluster cannot be made here, or undefined. */
export function privatePostgresMissing(): string | undefined {
  if (!pgBin()) return 'no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)';
  if (asRoot && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user for initdb';
  return undefined;
}

export interface PrivatePostgres {
  url: string;
  start(): void;
  /** Stops the server at once (pg_ctl -m immediate): connections drop as in a crash. */
  stop(): void;
  remove(): void;
}

export function startPrivatePostgres(): Promise<PrivatePostgres> {
  return freePort().then((port) => {
    const bin = pgBin()!;
    const dir = tempDir('lvs-test-pg-');
    const data = path.join(dir.dir, 'data');
    // initdb refuses root: the cluster belongs to the postgres user then.
    if (asRoot) spawnSync('chown', ['-R', 'postgres', dir.dir]);
    const run = (tool: string, args: string[]) => {
      const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', path.join(bin, tool), ...args] : [path.join(bin, tool), ...args];
      const out = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', cwd: dir.dir });
      if (out.status !== 0) throw new Error(`${tool} failed: ${out.stdout}${out.stderr}`);
    };
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const options = `-p ${port} -k ${dir.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    const start = () => run('pg_ctl', ['-D', data, '-l', path.join(dir.dir, 'log'), '-o', options, '-w', 'start']);
    const stop = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    start();
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      start,
      stop,
      remove() {
        try {
          stop();
        } catch {
          // already stopped
        }
        dir.remove();
      },
    };
  });
}
