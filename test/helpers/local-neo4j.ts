import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The repo's own Neo4j launcher (tools/neo4j, `npm run neo4j`) as tests start it: on free ports,
// with a data folder of the caller's, stopped and started again at will.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const LAUNCHER = path.join(ROOT, 'tools/neo4j/run.mjs');
const LAUNCHER_CONF = path.join(ROOT, 'tools/neo4j/neo4j.conf');
const launcherModule: string = LAUNCHER;
const { jarsFetched } = (await import(launcherModule)) as { jarsFetched: () => boolean };

const runs = (command: string, args: string[]) => !spawnSync(command, args, { stdio: 'ignore' }).error;

/** Why the local Neo4j cannot run on this machine, or undefined when it can (the jars may still need fetching). */
export function localNeo4jMissing(): string | undefined {
  if (!runs('java', ['-version'])) return 'no Java runtime (apt-get install openjdk-17-jre-headless)';
  if (!jarsFetched() && !runs('mvn', ['-v'])) return 'the Neo4j jars are not fetched and there is no Maven to fetch them (apt-get install maven)';
  return undefined;
}

/** Fetches the pinned jars once (Maven), failing with Maven's reason. */
export function fetchNeo4jJars() {
  if (jarsFetched()) return;
  const run = spawnSync(process.execPath, [LAUNCHER, '--fetch'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the Neo4j jars could not be fetched:\n${run.stdout}${run.stderr}`);
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

export interface LocalNeo4j {
  uri: string;
  user: string;
  password: string;
  /** Neo4j Browser, served by the launcher, when asked for. */
  browserUrl?: string;
  /** Stops the process (SIGTERM, a clean shutdown); start() brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The launcher's output so far. */
  output(): string;
}

/**
 * JVM options for the tests' instances, which live seconds to minutes: the client compiler alone
 * starts Neo4j with half the CPU (about 5 s of it less a start on this 2-core machine), where the
 * bench's long runs want the full JIT; the serial collector does no concurrent work beside a heap
 * of 1 GB at most (about a tenth less server CPU over the suite's files, decision 0031).
 */
export const SHORT_LIVED_JVM = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs the launcher's `import` or `admin` command on `dataDir`'s store, which no Neo4j may have open; fails with its output. */
function launcherCommand(what: string, dataDir: string, args: string[], javaOpts: string) {
  fetchNeo4jJars();
  const run = spawnSync(process.execPath, [LAUNCHER, ...args], { encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir, NEO4J_JAVA_OPTS: javaOpts } });
  if (run.status !== 0) throw new Error(`${what} failed (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  return run.stdout + run.stderr;
}

/** Runs Neo4j's offline importer through the launcher (`run.mjs import`) into `dataDir`'s store. */
export const importIntoLocalNeo4j = (dataDir: string, options: string[], javaOpts = '') => launcherCommand('the offline import', dataDir, ['import', ...options], javaOpts);

/** Runs a neo4j-admin command through the launcher (`run.mjs admin`) on `dataDir`'s store. */
export const neo4jAdmin = (dataDir: string, args: string[], javaOpts = '') => launcherCommand(`neo4j-admin ${args.join(' ')}`, dataDir, ['admin', ...args], javaOpts);

/**
 * Settings of the suite's own instances beside the launcher's conf. Its graphs are small and each
 * statement changes them by a large fraction, so the planner planned the same queries again every
 * 10 s (the default interval): a tenth of the Neo4j files' time, most of it the server's CPU.
 */
export const SUITE_NEO4J_SETTINGS: Record<string, string> = {
  'dbms.cypher.min_replan_interval': '1h',
  // The tests that outgrow it fill it first (6M nodes for 512 MB); none of the others nears 128 MB.
  'db.memory.transaction.total.max': '128m',
};

type LaunchOptions = { dataDir: string; password: string; browser?: boolean; javaOpts?: string; settings?: Record<string, string> };

/**
 * Starts the launcher with its data under `dataDir` and waits until it says it is ready; `settings`
 * go after its conf's, in a copy in `dataDir`.
 */
export async function startLocalNeo4j(options: LaunchOptions): Promise<LocalNeo4j> {
  const { instance, ready } = await launchLocalNeo4j(options);
  await ready;
  return instance;
}

/** As startLocalNeo4j, without waiting: the instance (its ports are taken) and when it is ready. */
export async function launchLocalNeo4j(options: LaunchOptions): Promise<{ instance: LocalNeo4j; ready: Promise<void> }> {
  fetchNeo4jJars();
  const conf = options.settings && path.join(options.dataDir, 'neo4j.conf');
  if (conf) {
    // Neo4j refuses a setting declared twice: the launcher's line for a key given here goes.
    const launcher = fs.readFileSync(LAUNCHER_CONF, 'utf8').split('\n').filter((line) => !(line.split('=')[0].trim() in options.settings!));
    fs.writeFileSync(conf, `${launcher.join('\n')}\n${Object.entries(options.settings!).map(([k, v]) => `${k}=${v}\n`).join('')}`);
  }
  const bolt = await freePort();
  const http = options.browser ? await freePort() : 0;
  let child: ChildProcess | undefined;
  let out = '';
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, [LAUNCHER], {
        env: { ...process.env, DATA_DIR: options.dataDir, NEO4J_PASSWORD: options.password, NEO4J_BOLT_PORT: String(bolt), NEO4J_BROWSER_PORT: String(http), NEO4J_JAVA_OPTS: options.javaOpts ?? '', ...(conf && { NEO4J_CONF: conf }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      const mark = out.length;
      const onData = (d: Buffer) => {
        out += d;
        if (/ ready, data in /.test(out.slice(mark))) resolve();
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', onData);
      proc.once('exit', (code) => reject(new Error(`Neo4j exited with ${code} before it was ready:\n${out.slice(mark)}`)));
    });
  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  const ready = start();
  // Held for the caller; without a handler a start that fails first would crash the process.
  ready.catch(() => undefined);
  const instance = {
    uri: `bolt://127.0.0.1:${bolt}`,
    user: 'neo4j',
    password: options.password,
    browserUrl: options.browser ? `http://127.0.0.1:${http}/` : undefined,
    stop,
    start,
    output: () => out,
  };
  return { instance, ready };
}

/** A temporary folder removed with its contents by the returned function. */
export function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
