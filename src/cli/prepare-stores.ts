// Run by `npm install` (postinstall): makes the template a new embedded accounts store is copied
// from (src/store/pglite-template.ts), so that a first start skips initdb. Never fails the install:
// without the template, the first start makes it.
import { prepareTemplate } from '../store/open-store.js';

try {
  const started = performance.now();
  const folder = await prepareTemplate();
  console.log(`embedded accounts store template ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${folder}`);
} catch (err) {
  console.warn(`the embedded accounts store template was not made (the first start will make it): ${(err as Error).message}`);
}
