import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

// Setup file of both projects: a test file's temporary folders, and those of the processes it
// starts, go in a folder of its own (TMPDIR), removed when the file ends, so a run leaves /tmp as
// it found it. Registered first, its afterAll runs after the file's own (hooks run as a stack).
// The machine's temporary folder, kept for the next file where a worker runs several (isolate: false).
const base = (process.env.LVS_TEST_TMP_BASE ??= os.tmpdir());
const own = fs.mkdtempSync(path.join(base, 'lvs-test-file-'));
// Passable by other users, as /tmp is: a PostgreSQL of a test's own runs as `postgres` in a folder here.
fs.chmodSync(own, 0o711);
process.env.TMPDIR = own;
afterAll(() => fs.rmSync(own, { recursive: true, force: true }));
