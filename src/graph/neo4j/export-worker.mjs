// Entry of the Neo4j export worker thread: Node 20 does not pass the process's tsx loader on to
// worker threads, so the worker registers it before it loads its TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./export-worker.ts');
