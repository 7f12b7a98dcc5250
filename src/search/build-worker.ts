// Worker thread of the search index: builds it from an export file, or the overlay of a patch's
// rows (a file of them, or their packs) and then its merge, or a refresh's pack of its changed
// rows, or one half of a build in parts (an export split by state, then states built apart), and
// hands the result over, typed arrays transferred. Off the main thread, a rebuild (seconds at
// national scale) does not hold up the requests being served.
import { parentPort } from 'node:worker_threads';
import { buildSearchIndexFromFile, buildSearchIndexFromParts, mergeOverlay, overlayFromFile, overlayFromPacked, packSearchRows, splitExport, transferables, type WorkerTask } from './search-index.js';

/** A task's result, and the buffers to transfer with it. */
async function run(task: WorkerTask): Promise<[unknown, ArrayBuffer[]]> {
  switch (task.task) {
    case 'split':
      return [await splitExport(task.file, task.dir), []];
    case 'pack': {
      const packed = await packSearchRows(task.rows);
      return [packed, [packed.buffer as ArrayBuffer]];
    }
    case 'overlay': {
      const overlay = 'packed' in task ? overlayFromPacked(task.base, task.changed, task.packed) : await overlayFromFile(task.base, task.changed, task.file);
      return [overlay, transferables(overlay)];
    }
    default: {
      const parts = task.task === 'parts' ? await buildSearchIndexFromParts(task.files, task.codes) : task.task === 'merge' ? mergeOverlay(task.base, task.overlay) : await buildSearchIndexFromFile(task.file, task.codes);
      return [parts, transferables(parts)];
    }
  }
}

// Tasks come as messages, each answered under its id, until the worker is terminated.
const port = parentPort!;
port.on('message', async ({ id, task }: { id: number; task: WorkerTask }) => {
  try {
    const [result, transfer] = await run(task);
    port.postMessage({ id, result }, transfer);
  } catch (err) {
    port.postMessage({ id, error: (err as Error).message });
  }
});
