// Creates a PGlite cluster in the folder given, then exits: the store's initdb (see pglite-store.ts).
import { PGlite } from '@electric-sql/pglite';

const db = new PGlite(process.argv[2], { postgresqlconf: JSON.parse(process.argv[3]) });
await db.waitReady;
await db.close();
