// Worker thread of a Neo4j export (export-file.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { writeExportAlone, type ExportJob } from './export-file.js';

const port = parentPort!;
try {
  await writeExportAlone(workerData as ExportJob);
  port.postMessage({ done: true });
} catch (err) {
  port.postMessage({ error: (err as Error).message, code: String((err as { code?: string }).code ?? '') });
}
