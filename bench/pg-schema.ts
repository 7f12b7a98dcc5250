// A bench's own schema in a PostgreSQL it is given, dropped after: the side store's tables never
// meet another run's or the tests'.
import pg from 'pg';

/** `url` scoped to a fresh schema `name` (its search_path), and how to drop that schema. */
export async function benchSchema(url: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${name}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${name}`);
  return {
    url: scoped.toString(),
    drop: async () => {
      await admin.query(`DROP SCHEMA ${name} CASCADE`);
      await admin.end();
    },
  };
}
