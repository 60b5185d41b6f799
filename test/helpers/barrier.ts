// A barrier for races on the real database: a separate connection takes a row's lock and keeps it
// while the test sends its conflicting requests; once PostgreSQL shows every one of them waiting for
// a lock, the barrier commits and they all go. Each request has then started its write before any
// of them committed, which is the moment two administrators (or an administrator and a bot) meet.
import type { Db } from '../../shared/db/database.ts';

export interface Barrier {
  /** Resolves once `count` other sessions of this database wait for a lock (rejects after 20 s). */
  waiting(count: number): Promise<void>;
  /** Commits the barrier's transaction: the waiting writes proceed, one at a time. */
  release(): Promise<void>;
}

/** Locks the rows `lockSql` selects (`… FOR UPDATE`) in a transaction of its own. */
export async function holdLock(db: Db, lockSql: string, params: unknown[]): Promise<Barrier> {
  const connection = await db.connect();
  await connection.none('BEGIN');
  await connection.any(lockSql, params);
  const released = { done: false };
  return {
    async waiting(count) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { waiters } = await db.one<{ waiters: number }>(
          "SELECT count(*)::int AS waiters FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (waiters >= count) return;
        if (Date.now() > deadline) throw new Error(`barrier: ${waiters} of ${count} writes reached the lock`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async release() {
      if (released.done) return;
      released.done = true;
      await connection.none('COMMIT');
      connection.done();
    },
  };
}

/**
 * Sends the requests while `barrier` holds its lock, each once the one before it waits for the lock
 * (PostgreSQL grants a row's lock to its waiters in the order they came, so the first listed writes
 * first), then releases it; resolves with their answers in the order given.
 */
export async function race<T>(barrier: Barrier, requests: Array<() => Promise<T>>): Promise<T[]> {
  const answers: Array<Promise<T>> = [];
  try {
    for (const request of requests) {
      const answer = request();
      answers.push(answer);
      // A request that answers without reaching the lock (a 4xx of its own) does not hold the line.
      await Promise.race([barrier.waiting(answers.length), answer.then(() => undefined, () => undefined)]);
    }
  } finally {
    await barrier.release();
  }
  return Promise.all(answers);
}
