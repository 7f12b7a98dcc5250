// Entry of the bulk import's worker threads (see prepare-worker.mjs for why tsx is registered here).
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { chunkHandler } = await import('./bulk-import-worker.ts');
const handle = chunkHandler(workerData);
parentPort.on('message', (job) => {
  try {
    parentPort.postMessage(handle(job));
  } catch (err) {
    parentPort.postMessage({ seq: job.seq, error: err.message });
  }
});
