// The side store port: accounts, API keys and usage live in PostgreSQL (pg) or, embedded, in
// PGlite. Both speak the same SQL; repositories hold the statements.

export interface SqlTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlStore extends SqlTx {
  readonly kind: 'postgres' | 'pglite';
  /** PGlite's folder on disk (absent in memory, and for PostgreSQL). */
  readonly folder?: string;
  /** Runs `fn` in one transaction: everything commits or nothing does. */
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Its connections as they stand (metrics): how many there may be, in use, idle, and queries waiting for one. */
  connections?(): { max: number; inUse: number; idle: number; waiting: number };
}
