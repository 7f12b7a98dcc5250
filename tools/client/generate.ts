// Regenerates clients/typescript/src/generated/ from the OpenAPI document the service serves
// (`npm run client:generate`, or `-- --from <url of /openapi.json>` to read a running server's).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApi } from 'swagger-typescript-api';

export const GENERATED_DIR = fileURLToPath(new URL('../../clients/typescript/src/generated/', import.meta.url));

/** The SHA-256 of the document as served (its JSON text), which the client records. */
export function documentHash(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex');
}

/** The generated files' names and texts, for a document. */
export async function clientFiles(doc: { info: { version: string } }): Promise<Record<string, string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-client-'));
  try {
    await generateApi({
      spec: structuredClone(doc) as never,
      output: dir,
      fileName: 'api.ts',
      httpClientType: 'fetch',
      generateUnionEnums: true,
      silent: true,
    });
    const document = [
      '// The OpenAPI document this client was generated from (tools/client/generate.ts).',
      `export const OPENAPI_VERSION = ${JSON.stringify(doc.info.version)};`,
      `export const OPENAPI_SHA256 = ${JSON.stringify(documentHash(doc))};`,
      '',
    ].join('\n');
    return { 'api.ts': fs.readFileSync(path.join(dir, 'api.ts'), 'utf8'), 'document.ts': document };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function servedDocument(from: string | undefined): Promise<{ info: { version: string } }> {
  if (from) {
    const res = await fetch(from);
    if (!res.ok) throw new Error(`${from} answered ${res.status}`);
    return (await res.json()) as { info: { version: string } };
  }
  // The document depends on no data: an in-memory graph and store serve it.
  const { compose, noMail, openGraph } = await import('../../src/compose/index.js');
  const { loadQueryFiles } = await import('../../src/graph/query-files.js');
  const { migrate } = await import('../../src/store/migrations.js');
  const { openPglite } = await import('../../src/store/pglite-store.js');
  const { loadConfig } = await import('../../src/config.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvs-document-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir }), graphPath: ':memory:', GRAPH_BUFFER_POOL_MB: 64, GRAPH_CONNECTIONS: 1 };
  const graph = await openGraph(config, loadQueryFiles());
  const store = await openPglite();
  try {
    await migrate(store);
    const app = await compose(config, { graph, store, mail: noMail('http://localhost') }).app();
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      return (await res.json()) as { info: { version: string } };
    } finally {
      server.close();
    }
  } finally {
    await store.close();
    await graph.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const at = process.argv.indexOf('--from');
  const doc = await servedDocument(at >= 0 ? process.argv[at + 1] : undefined);
  const files = await clientFiles(doc);
  fs.mkdirSync(GENERATED_DIR, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(GENERATED_DIR, name), text);
  console.log(`clients/typescript/src/generated/ from the document ${documentHash(doc).slice(0, 12)} (version ${doc.info.version})`);
  process.exit(0);
}
