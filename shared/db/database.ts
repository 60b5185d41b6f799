// One pg-promise instance per process; every SQL value goes through its parameter formatting.
import pgPromise, { type IDatabase, type IMain, type ITask } from 'pg-promise';
import type { Logger } from '../logger.ts';

export type Db = IDatabase<object>;
export type Tx = ITask<object>;
/** Anything that can run a query: the database or an open task/transaction. */
export type Queryable = Db | Tx;

let pgp: IMain | null = null;

function main(): IMain {
  if (pgp) return pgp;
  pgp = pgPromise({
    noWarnings: true,
    // Each new connection learns where stored files are served, for storage_url() (migration 011).
    // Queued on the client before the query that asked for the connection.
    connect({ client, dc, useCount }) {
      const base = (dc as DatabaseContext | undefined)?.storageBaseUrl;
      if (useCount === 0 && base) void client.query("SELECT set_config('app.storage_base_url', $1, false)", [base]).catch(() => undefined);
    },
  });
  const types = pgp.pg.types;
  types.setTypeParser(1082, (value: string) => value); // date stays 'YYYY-MM-DD', no time-zone shift
  types.setTypeParser(20, (value: string) => Number(value)); // bigint counts fit in a double here
  types.setTypeParser(1700, (value: string) => Number(value)); // numeric
  return pgp;
}

export interface Database {
  db: Db;
  /** The connection URL, for worker threads that open their own connection. */
  url: string;
  close(): Promise<void>;
}

interface DatabaseContext {
  storageBaseUrl?: string;
}

/** `storageBaseUrl`: what storage_url() puts before a stored key (`<PUBLIC_BASE_URL>/storage/<bucket>`). */
export function connectDatabase(url: string, logger: Logger, poolSize = 20, storageBaseUrl?: string): Database {
  const context: DatabaseContext = storageBaseUrl ? { storageBaseUrl } : {};
  const db = main()({ connectionString: url, max: poolSize, application_name: 'schedule-backend' }, context);
  let closing = false;
  db.$pool.on('error', (error: Error) => {
    // Connections still closing when the server stops report 57P01; expected during shutdown.
    if (closing && pgErrorCode(error) === '57P01') return;
    logger.error({ err: error }, 'idle database client error');
  });
  return {
    db,
    url,
    // pgp.end() alone leaves an unhandled 57P01 when the server stops next (DEPENDENCIES.md).
    close: async () => {
      closing = true;
      await db.$pool.end();
    },
  };
}

export const pgErrorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
