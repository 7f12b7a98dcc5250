// Entry of the bulk import's worker threads (see prepare-worker.mjs for why tsx is registered here).
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { chunkHandler } = await import('./bulk-import-worker.ts');
// The list fields as the engine's sink encodes them: workerData names its module.
const handle = chunkHandler(workerData, await import(workerData.listFields));
parentPort.on('message', (job) => {
  try {
    parentPort.postMessage(handle(job));
  } catch (err) {
    parentPort.postMessage({ seq: job.seq, error: err.message });
  }
});
