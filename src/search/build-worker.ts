// Worker thread of the search index: builds it from an export file, or the overlay of a patch's
// rows and then its merge, or one half of a build in parts (an export split by state, then states built apart), and
// hands the result over, typed arrays transferred. Off the main thread, a rebuild (seconds at
// national scale) does not hold up the requests being served.
import { parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndexFromFile, buildSearchIndexFromParts, mergeOverlay, overlayFromFile, splitExport, transferables, type WorkerTask } from './search-index.js';

const port = parentPort!;
try {
  const task = workerData as WorkerTask;
  if (task.task === 'split') port.postMessage({ result: await splitExport(task.file, task.dir) });
  else if (task.task === 'overlay') {
    const overlay = await overlayFromFile(task.base, task.changed, task.file);
    port.postMessage({ result: overlay }, transferables(overlay));
  } else {
    const parts = task.task === 'parts' ? await buildSearchIndexFromParts(task.files, task.codes) : task.task === 'merge' ? mergeOverlay(task.base, task.overlay) : await buildSearchIndexFromFile(task.file, task.codes);
    port.postMessage({ result: parts }, transferables(parts));
  }
} catch (err) {
  port.postMessage({ error: (err as Error).message });
}
