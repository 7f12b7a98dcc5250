// A generated FL DBPR file (the layout of RE_rgn*.csv) for the benches, and the stores they
// refresh it into.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config.js';
import { compose } from '../src/compose/index.js';

/**
 * Deterministic: brokerages every 40 rows, agents employed by them, and the rows `inactive` picks
 * Inactive; the agents `moved` picks are employed by the next brokerage instead (the last one's stay).
 */
export function writeFlFile(file: string, rows: number, inactive: (i: number) => boolean, moved: (i: number) => boolean = () => false) {
  const out = fs.createWriteStream(file);
  const last = ['SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ'];
  const first = ['JAMES', 'MARY', 'ROBERT', 'PATRICIA', 'JOHN', 'JENNIFER', 'MICHAEL', 'LINDA'];
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const number = 3000000 + i;
    const broker = i % 40 === 0;
    const home = i - (i % 40);
    const employer = broker ? '' : String(3000000 + (moved(i) && home + 40 < rows ? home + 40 : home));
    const status = inactive(i) ? '"Current","Inactive"' : '"Current","Active"';
    const name = broker ? `"${last[i % 10]} REALTY ${i} INC"` : `"${last[i % 10]}, ${first[i % 8]} ${String.fromCharCode(65 + (i % 26))}"`;
    const rank = broker ? '"CQ RE Corp."' : '"SL Sales Associate"';
    buf += `"25","2501 Real Estate Broker or Sales",${name},"",${rank},"${i} MAIN ST","","","MIAMI","FL","33101","13","Dade","${number}",${status},"01/02/2015","01/02/2015","03/31/2027","SL${number}","","","${employer}"\n`;
    if (buf.length > 1 << 20) {
      out.write(buf);
      buf = '';
    }
  }
  out.end(buf);
  return new Promise<void>((resolve) => out.on('finish', () => resolve()));
}


/**
 * An on-disk LadybugDB graph and PGlite side store under `dir`, and their removal with it: the
 * service's buffer pool (its default unless the environment sets one), two connections as in
 * every earlier run of the benches, and a query timeout long enough for a whole state.
 */
/**
 * @param neo4j a running Neo4j to use instead of an on-disk LadybugDB graph in `dir`.
 * @param options the composition root's (`delivers`: the bench delivers webhooks).
 * @param overrides of the configuration the environment gives.
 */
export async function flBenchStores(dir: string, neo4j?: { uri: string; user: string; password: string }, options?: Parameters<typeof compose>[1], overrides: Partial<Config> = {}) {
  const config = { ...loadConfig(), ...overrides };
  const engine = neo4j ? { NEO4J_URI: neo4j.uri, NEO4J_USER: neo4j.user, NEO4J_PASSWORD: neo4j.password } : { NEO4J_URI: undefined };
  const root = compose({ ...config, ...engine, graphPath: path.join(dir, 'graph.lbug'), GRAPH_CONNECTIONS: 2, GRAPH_QUERY_TIMEOUT_MS: 600000, DATABASE_URL: undefined, pglitePath: path.join(dir, 'accounts.pglite'), DATABASE_POOL_SIZE: 1 }, options);
  const graph = await root.graph();
  const store = await root.store();
  return {
    root,
    files: root.files(),
    config,
    graph,
    store,
    async close() {
      await root.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
