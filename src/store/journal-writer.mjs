// Worker thread of the verification journal's files (journal-files.ts): it writes and syncs the
// open segment and removes stored ones, in the order asked, so that a disk slow to sync (a refresh
// copying a store beside it) holds the journal's callers, never the event loop that serves the rest.
// Plain JavaScript: a worker thread does not inherit the process's TypeScript loader.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';

let fd = null;
parentPort.on('message', ({ id, op, file, text }) => {
  try {
    if (op === 'open') {
      const next = fs.openSync(file, 'a');
      if (fd !== null) fs.closeSync(fd);
      fd = next;
    } else if (op === 'append') {
      for (let at = 0; at < text.length; ) at += fs.writeSync(fd, text, at);
      fs.fdatasyncSync(fd);
    } else if (op === 'remove') {
      fs.rmSync(file, { force: true });
    } else if (op === 'close') {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    }
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
