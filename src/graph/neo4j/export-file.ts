// Streams a large Neo4j read to a file in the bulk dialect (engine.ts exportFile), in a worker
// thread with a driver of its own: decoding millions of records stays off the requests' thread.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import neo4j, { type Session } from 'neo4j-driver';
import { csvRow } from '../bulk-file.js';
import { GraphError } from '../../errors.js';
import type { Params } from '../graph-port.js';
import { rowOf, toNeo4jParams } from './values.js';

export interface ExportJob {
  connection: { uri: string; user: string; password: string; database: string };
  query: string;
  params: Params;
  columns: readonly string[];
  file: string;
}

/** The rows written as they arrive on `session`, the file's back-pressure kept; a failed write (a full disk) fails the call. */
export async function writeExport(session: Session, job: Omit<ExportJob, 'connection'>): Promise<void> {
  async function* lines() {
    let chunk: string[] = [];
    for await (const record of session.run(job.query, toNeo4jParams(job.params) as Record<string, unknown>, { timeout: 0 })) {
      chunk.push(csvRow(job.columns as string[], rowOf(record)));
      if (chunk.length === 1000) {
        yield `${chunk.join('\n')}\n`;
        chunk = [];
      }
    }
    if (chunk.length) yield `${chunk.join('\n')}\n`;
  }
  try {
    await pipeline(Readable.from(lines()), fs.createWriteStream(job.file));
  } catch (err) {
    fs.rmSync(job.file, { force: true });
    throw err;
  }
}

/** Runs in the worker: a driver and session of its own. */
export async function writeExportAlone(job: ExportJob): Promise<void> {
  const { connection } = job;
  const driver = neo4j.driver(connection.uri, neo4j.auth.basic(connection.user, connection.password), { maxConnectionPoolSize: 1 });
  const session = driver.session({ database: connection.database, defaultAccessMode: neo4j.session.READ });
  try {
    await writeExport(session, job);
  } finally {
    await session.close();
    await driver.close();
  }
}

/** Writes the export in a worker thread; a failure is a GraphError (transient when Neo4j says so), and leaves no file. */
export function exportInWorker(job: ExportJob): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./export-worker.mjs', import.meta.url), { workerData: job });
    worker.once('message', (m: { done: true } | { error: string; code: string }) => {
      if ('done' in m) return resolve();
      fs.rmSync(job.file, { force: true });
      reject(new GraphError(`neo4j export failed: ${m.error}`, /^Neo\.TransientError|ServiceUnavailable|SessionExpired/.test(m.code)));
    });
    worker.once('error', (err) => {
      fs.rmSync(job.file, { force: true });
      reject(err);
    });
    worker.once('exit', (code) => reject(new Error(`the export worker stopped with code ${code}`)));
  });
}
