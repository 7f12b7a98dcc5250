// npm run neo4j: a local Neo4j without Docker. Fetches the jars once (Maven), then runs Main.java
// with the data under DATA_DIR/neo4j, until SIGTERM or Ctrl-C. `--fetch` only fetches the jars.
// `import <option>...` runs Neo4j's offline importer (neo4j-admin database import full) into the
// same data's `neo4j` database instead, with the same conf: a first load, while Neo4j is stopped;
// `admin <args>` any other neo4j-admin command on it (database dump and load, for backups).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LIB = path.join(HERE, 'lib');
// NEO4J_CONF: another file of the same settings (a benchmark's larger memory, for one).
const CONF = process.env.NEO4J_CONF ? path.resolve(process.env.NEO4J_CONF) : path.join(HERE, 'neo4j.conf');

const fail = (message) => {
  console.error(`npm run neo4j: ${message}`);
  process.exit(1);
};
const has = (command, args) => !spawnSync(command, args, { stdio: 'ignore' }).error;

/** Whether lib/ holds the jars of the versions pinned in pom.xml. */
export const jarsFetched = () => {
  const stamp = path.join(LIB, '.versions');
  return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === JSON.stringify(pinnedVersions());
};

/** The versions pinned in pom.xml: lib/ is fetched again when they change. */
export function pinnedVersions() {
  const pom = fs.readFileSync(path.join(HERE, 'pom.xml'), 'utf8');
  const value = (name) => new RegExp(`<${name}>([^<]+)</${name}>`).exec(pom)?.[1];
  return { neo4j: value('neo4j.version'), browser: value('neo4j-browser.version') };
}

function fetchJars() {
  if (jarsFetched()) return;
  if (!has('mvn', ['-v'])) fail('Maven (mvn) is not installed: it fetches Neo4j from Maven Central once (apt-get install maven, or see https://maven.apache.org)');
  console.log(`fetching Neo4j ${pinnedVersions().neo4j} from Maven Central into ${path.relative(process.cwd(), LIB)} (once)`);
  fs.rmSync(LIB, { recursive: true, force: true });
  const run = spawnSync('mvn', ['-q', '-B', '-f', path.join(HERE, 'pom.xml'), 'dependency:copy-dependencies'], { stdio: 'inherit' });
  if (run.status !== 0) fail(`Maven could not fetch the jars (exit ${run.status})`);
  fs.writeFileSync(path.join(LIB, '.versions'), JSON.stringify(pinnedVersions()));
}

/** -Xms/-Xmx from the conf's heap settings (the embedded DBMS runs in this JVM). */
function heapArgs() {
  const conf = fs.readFileSync(CONF, 'utf8');
  const value = (name) => new RegExp(`^${name.replaceAll('.', '\\.')}=(\\S+)`, 'm').exec(conf)?.[1];
  const args = [];
  if (value('server.memory.heap.initial_size')) args.push(`-Xms${value('server.memory.heap.initial_size')}`);
  if (value('server.memory.heap.max_size')) args.push(`-Xmx${value('server.memory.heap.max_size')}`);
  return args;
}

/**
 * The class path and main class: Main compiled once into lib/classes where a JDK's javac is here
 * (a start then skips compiling it, about a second of CPU), else the source launcher.
 */
function mainArgs() {
  const source = path.join(HERE, 'Main.java');
  const classes = path.join(LIB, 'classes');
  const fresh = () => fs.existsSync(path.join(classes, 'Main.class')) && fs.statSync(path.join(classes, 'Main.class')).mtimeMs >= fs.statSync(source).mtimeMs;
  if (!fresh() && has('javac', ['-version'])) {
    // Compiled aside and renamed in: launchers starting at once never read a half-written class.
    const out = fs.mkdtempSync(path.join(LIB, '.classes-'));
    if (spawnSync('javac', ['-d', out, '-cp', path.join(LIB, '*'), source], { stdio: 'inherit' }).status === 0) {
      fs.mkdirSync(classes, { recursive: true });
      for (const file of fs.readdirSync(out)) fs.renameSync(path.join(out, file), path.join(classes, file));
    }
    fs.rmSync(out, { recursive: true, force: true });
  }
  return fresh() ? ['-cp', `${path.join(LIB, '*')}${path.delimiter}${classes}`, 'Main'] : ['-cp', path.join(LIB, '*'), source];
}

/** NEO4J_JAVA_OPTS: more JVM options (the tests' short-lived instances compile less, for one). */
const javaOpts = () => (process.env.NEO4J_JAVA_OPTS ?? '').split(/\s+/).filter(Boolean);

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--fetch')) {
  // CI fetches the jars before the suite, so a registry that does not answer fails there.
  fetchJars();
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!has('java', ['-version'])) fail('Java is not installed: Neo4j 5.26 needs a Java 17 or 21 runtime (apt-get install openjdk-17-jre-headless)');
  fetchJars();
  const home = path.resolve(process.env.DATA_DIR ?? 'data', 'neo4j');
  // `import <option>...` is `admin database import full neo4j <option>...`; `admin <args>` runs any
  // neo4j-admin command on the same data (a dump or load, for one), with Neo4j stopped.
  const admin = { import: ['database', 'import', 'full', 'neo4j', ...process.argv.slice(3)], admin: process.argv.slice(3) }[process.argv[2]];
  if (admin) {
    // The admin tool reads neo4j.conf from the folder NEO4J_CONF names.
    const confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'neo4j-conf-'));
    fs.copyFileSync(CONF, path.join(confDir, 'neo4j.conf'));
    fs.mkdirSync(home, { recursive: true });
    const run = spawnSync('java', [...javaOpts(), '-cp', path.join(LIB, '*'), 'org.neo4j.cli.AdminTool', ...admin], {
      stdio: 'inherit',
      env: { ...process.env, NEO4J_HOME: home, NEO4J_CONF: confDir },
    });
    fs.rmSync(confDir, { recursive: true, force: true });
    process.exit(run.status ?? 1);
  }
  if (!process.env.NEO4J_PASSWORD) fail('set NEO4J_PASSWORD (at least 8 characters): the neo4j user gets it, and the service connects with it');
  const child = spawn('java', [...javaOpts(), ...heapArgs(), `-Dneo4j.conf=${CONF}`, ...mainArgs()], {
    stdio: 'inherit',
    env: { ...process.env, NEO4J_HOME: home },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
