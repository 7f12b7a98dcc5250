// Entry of the bulk import's worker threads (see prepare-worker.mjs for why).
import { register } from 'tsx/esm/api';

register();
await import('./bulk-import-worker.ts');
