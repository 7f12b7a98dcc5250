// Worker thread of the search index: builds it from an export file, or the overlay of a patch's
// rows (a file of them, or their packs) and then its merge, or a refresh's pack of its changed
// rows, or one half of a build in parts (an export split by state, then states built apart), and
// hands the result over, typed arrays transferred. Off the main thread, a rebuild (seconds at
// national scale) does not hold up the requests being served.
import { parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndexFromFile, buildSearchIndexFromParts, mergeOverlay, overlayFromFile, overlayFromPacked, packSearchRows, splitExport, transferables, type WorkerTask } from './search-index.js';

const port = parentPort!;
try {
  const task = workerData as WorkerTask;
  if (task.task === 'split') port.postMessage({ result: await splitExport(task.file, task.dir) });
  else if (task.task === 'pack') {
    const packed = await packSearchRows(task.rows);
    port.postMessage({ result: packed }, [packed.buffer as ArrayBuffer]);
  }
  else if (task.task === 'overlay') {
    const overlay = 'packed' in task ? overlayFromPacked(task.base, task.changed, task.packed) : await overlayFromFile(task.base, task.changed, task.file);
    port.postMessage({ result: overlay }, transferables(overlay));
  } else {
    const parts = task.task === 'parts' ? await buildSearchIndexFromParts(task.files, task.codes) : task.task === 'merge' ? mergeOverlay(task.base, task.overlay) : await buildSearchIndexFromFile(task.file, task.codes);
    port.postMessage({ result: parts }, transferables(parts));
  }
} catch (err) {
  port.postMessage({ error: (err as Error).message });
}
