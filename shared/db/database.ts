// One pg-promise instance per process; every SQL value goes through its parameter formatting.
import pgPromise, { type IDatabase, type IMain, type ITask } from 'pg-promise';
import type { Logger } from '../runtime/logger.ts';

export type Db = IDatabase<object>;
export type Tx = ITask<object>;
/** Anything that can run a query: the database or an open task/transaction. */
export type Queryable = Db | Tx;

let pgp: IMain | null = null;

/** How long an idle pooled connection stays open (see `connectDatabase`). */
const IDLE_CONNECTION_MS = 60_000;

/** The select list that makes a session reuse its prepared statements' generic plans (`preparedQuery`). */
const GENERIC_PLANS = "set_config('plan_cache_mode', 'force_generic_plan', false)";

function main(): IMain {
  if (pgp) return pgp;
  pgp = pgPromise({
    noWarnings: true,
    // Each new connection is set up by one query, queued on the client before the query that asked
    // for the connection: prepared statements keep their generic plan (`preparedQuery`), and where
    // stored files are served, for storage_url() (migration 011).
    connect({ client, dc, useCount }) {
      if (useCount !== 0) return;
      const base = (dc as DatabaseContext | undefined)?.storageBaseUrl;
      const setup = base
        ? client.query(`SELECT ${GENERIC_PLANS}, set_config('app.storage_base_url', $1, false)`, [base])
        : client.query(`SELECT ${GENERIC_PLANS}`);
      void setup.catch(() => undefined);
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

export interface DatabaseTimeouts {
  /** Longest wait for a connection: a free one from the pool, or a new one opened (pg `connectionTimeoutMillis`). */
  connectMs: number;
  /** Longest wait for one query's answer, on the client (a frozen server cannot enforce its own) and on the server. */
  queryMs: number;
}

interface DatabaseContext {
  storageBaseUrl?: string;
}

export interface ConnectOptions {
  /** A query against an unreachable server fails within connectMs + queryMs instead of hanging; that error is `databaseUnavailable` (503, not 500). */
  timeouts?: DatabaseTimeouts;
  /** What storage_url() puts before a stored key (`<PUBLIC_BASE_URL>/storage/<bucket>`). */
  storageBaseUrl?: string;
}

export function connectDatabase(url: string, logger: Logger, poolSize = 20, options: ConnectOptions = {}): Database {
  const { timeouts, storageBaseUrl } = options;
  const context: DatabaseContext = storageBaseUrl ? { storageBaseUrl } : {};
  const db = main()(
    {
      connectionString: url,
      max: poolSize,
      // An idle connection is kept a minute, not pg-pool's 10 s: opening one costs the event loop
      // 10–20 ms (SCRAM, the new backend's start on the same cores), and a search whose words
      // match nothing sends up to five statements at once after a quiet spell.
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      application_name: 'schedule-backend',
      ...(timeouts ? { connectionTimeoutMillis: timeouts.connectMs, query_timeout: timeouts.queryMs, statement_timeout: timeouts.queryMs } : {}),
    },
    context,
  );
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

/**
 * A query of fixed text run on every event or message (the bus, the outbox relay, the search
 * indexer) as a named prepared statement: each connection parses and plans it once, and the values
 * travel as parameters instead of being formatted into the text. The name must stay bound to this
 * one text.
 *
 * Planned once because every connection of the pool sets `plan_cache_mode` to
 * `force_generic_plan` (GENERIC_PLANS): left to choose, PostgreSQL planned the search documents'
 * query anew on every call, as its generic plan's estimate (an id array of unknown length) looked
 * dearer than a custom plan for one id: 0.5 ms of planning for 0.04 ms of work, a sixth of
 * PostgreSQL's CPU per uploaded poster; over 50,000 schedules a call took 1.2-1.4 ms against
 * 0.4-0.6 with the generic plan, which is also faster for 50 ids. Every
 * statement made here looks rows up by key or small arrays of keys, where the generic plan is the
 * right one. Queries formatted into their text (the rest) are planned per call whatever the mode.
 */
export function preparedQuery(name: string, text: string): (...values: unknown[]) => pgPromise.PreparedStatement {
  return (...values) => new pgPromise.PreparedStatement({ name, text, values });
}

/** The statements `executePrepared` prepared on each connection (by its pg client). */
const preparedOn = new WeakMap<object, Set<string>>();

/**
 * Runs `body` (numbered parameters `$1`…, each used) after `settings` (statements ending in `;`,
 * such as plan settings local to the statement) in one simple-protocol message, as an SQL-level
 * prepared statement `name` of the connection that runs it: parsed and planned once per
 * connection, then executed with its values formatted into the EXECUTE (one message, as for any
 * formatted query). The plan is made where the EXECUTE runs, under `settings`, and made again
 * there when the tables it reads change. The PREPARE goes with the first EXECUTE on a connection
 * (the names each one prepared are kept here); were a connection to lose or already hold one, its
 * error (26000, 42P05) is answered once. For a statement whose text varies by the shape of its
 * input and would otherwise be planned on every call: the caller bounds how many names it uses
 * (each holds its plan in every connection that ran it).
 */
export async function executePrepared<T>(db: Db, name: string, settings: string, body: string, values: unknown[]): Promise<T[]> {
  const execute = pgPromise.as.format(`EXECUTE ${name}(${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  const prepareAndExecute = `${settings} PREPARE ${name} AS ${body}; ${execute}`;
  const connection = await db.connect();
  try {
    const names = preparedOn.get(connection.client) ?? new Set<string>();
    preparedOn.set(connection.client, names);
    const run = async (text: string) => (await connection.multi<T>(text)).at(-1) ?? [];
    let rows: T[];
    try {
      rows = await run(names.has(name) ? `${settings} ${execute}` : prepareAndExecute);
    } catch (error) {
      const code = pgErrorCode(error);
      if (code === '26000') rows = await run(prepareAndExecute);
      else if (code === '42P05') rows = await run(`${settings} ${execute}`);
      else throw error;
    }
    names.add(name);
    return rows;
  } finally {
    connection.done();
  }
}

/**
 * A query whose values travel as parameters, parsed and planned on every call (no name bound to
 * its text): for a statement whose tables change between calls.
 */
export function parameterizedQuery(text: string, values: unknown[]): pgPromise.ParameterizedQuery {
  return new pgPromise.ParameterizedQuery({ text, values });
}

/** What a write that reads no result needs: a database, a transaction, or a WriteBatch. */
export interface Writer {
  none(query: string | pgPromise.PreparedStatement, values?: unknown): Promise<unknown>;
}

/**
 * Writes whose results nobody reads, queued and then sent by `run` as one multi-statement query:
 * one round trip instead of one each (each cost about 0.2 ms of the event loop and 0.1-0.2 ms of
 * PostgreSQL on the machines measured). The statements see each other's rows in order. An error
 * surfaces at `run`, which must be awaited inside the transaction the writes belong to.
 */
export class WriteBatch implements Writer {
  readonly #statements: string[] = [];

  async none(query: string | pgPromise.PreparedStatement, values?: unknown): Promise<null> {
    if (typeof query === 'string') this.#statements.push(pgPromise.as.format(query, values));
    else this.#statements.push(pgPromise.as.format(query.text as string, query.values));
    return null;
  }

  /** Sends the writes; on a connection outside a transaction they are one implicit transaction. */
  async run(tx: Pick<Tx, 'multi'>): Promise<void> {
    if (this.#statements.length > 0) await tx.multi(this.#statements.join(';\n'));
  }
}

export const pgErrorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;

/** SQLSTATEs of a server that is away, starting, stopping, full, or that cancelled a statement on its timeout. */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300|57014)$/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres and pg-pool report their timeouts and lost connections without a code. */
const UNAVAILABLE_MESSAGE = /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Connection pool of the database object has been destroyed)/;

/**
 * The message prefix of a database-unavailable error re-thrown by a worker thread: an error loses
 * its `code` crossing threads, and the caller turns this one into 503.
 */
export const DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE: ';

/** True when an error means the database cannot be reached now (a retry later may succeed), not a bad query. */
export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = pgErrorCode(error);
  if (code !== undefined && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET.has(code))) return true;
  return UNAVAILABLE_MESSAGE.test(error.message);
}
