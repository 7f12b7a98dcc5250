// Worker thread of the search index: builds it from an export file, or patches states with one,
// and hands the parts over, their typed arrays transferred. Off the main thread, a rebuild
// (seconds at national scale) does not hold up the requests being served.
import { parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndexFromFile, patchSearchIndexFromFile, transferables, type SearchIndexParts } from './search-index.js';

const port = parentPort!;
try {
  const { file, codes, patch } = workerData as { file: string; codes: SearchIndexParts['codes']; patch?: { base: SearchIndexParts; changed: string[] } };
  const parts = patch ? await patchSearchIndexFromFile(patch.base, patch.changed, file) : await buildSearchIndexFromFile(file, codes);
  port.postMessage({ parts }, transferables(parts));
} catch (err) {
  port.postMessage({ error: (err as Error).message });
}
