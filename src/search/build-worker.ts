// Worker thread of the search index: builds it from an export file, or patches states with one,
// and hands the parts over, their typed arrays transferred. Off the main thread, a rebuild
// (seconds at national scale) does not hold up the requests being served.
import { parentPort, workerData } from 'node:worker_threads';
import { buildFromFile, transferables, type BuildInput } from './search-index.js';

const port = parentPort!;
try {
  const { file, ...input } = workerData as { file: string } & BuildInput;
  const parts = await buildFromFile(file, input);
  port.postMessage({ parts }, transferables(parts));
} catch (err) {
  port.postMessage({ error: (err as Error).message });
}
