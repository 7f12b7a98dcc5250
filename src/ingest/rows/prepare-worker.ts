// Worker thread of preparedBatches: prepares a job's rows and posts them in batches, at most
// `window` batches ahead of the acknowledgements.
import { parentPort, workerData } from 'node:worker_threads';
import { BATCH_ROWS, prepareRows, type PreparedRow, type PrepareJob } from './prepared-rows.js';

const { job, window } = workerData as { job: PrepareJob; window: number };
const port = parentPort!;
let credits = window;
let wake: (() => void) | undefined;
port.on('message', () => {
  credits += 1;
  wake?.();
});

async function main() {
  let bytes = 0;
  let rows: PreparedRow[] = [];
  const send = async () => {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits -= 1;
    port.postMessage({ rows, bytes });
    rows = [];
  };
  for await (const prepared of prepareRows(job, (b) => (bytes = b))) {
    rows.push(...prepared);
    if (rows.length >= BATCH_ROWS) await send();
  }
  if (rows.length) await send();
  port.postMessage({ done: true });
  port.close();
}

main().catch((err: Error) => {
  port.postMessage({ error: err.message });
  port.close();
});
