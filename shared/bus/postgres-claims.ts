// A PostgreSQL bus subscription's hold on partitions and its offset commits. Each subscription
// opens one dedicated connection (its "session", outside the pool). It claims a (group, topic,
// partition) with a session-level `pg_try_advisory_lock` and commits every offset through that same
// connection. While the session lives no other member can claim the partition; when the process
// dies, PostgreSQL ends the session and releases its locks, so another member takes over at once.
// Because commits go through the lock holder's own session, a member that lost its session (and so
// its locks) can never commit an offset; a handler it still had in flight may finish, which is one
// more at-least-once duplicate for an idempotent actor. Claiming and committing on one session (not
// `pg_try_advisory_xact_lock` in a transaction around the handler) keeps transactions short and
// pool connections free while handlers run.
import { preparedQuery, type Db } from '../db/database.ts';
import type { Logger } from '../runtime/logger.ts';
import { PARTITIONS } from './postgres-append.ts';

/** Messages handled per claim before the partition is released, so that busy partitions rotate. */
export const BATCH = 100;

/** The partitions of `topics` that hold messages after the group's committed offset. */
export const pendingPartitions = preparedQuery(
  'bus-pending-partitions',
  `SELECT p.topic, p.partition FROM bus_partitions p
   JOIN bus_offsets o ON o.group_name = $1 AND o.topic = p.topic AND o.partition = p.partition
   WHERE p.topic = ANY($2::text[]) AND p.head > o.committed`,
);
const releasePartition = preparedQuery('bus-release', 'SELECT pg_advisory_unlock(hashtext($1), $2)');
/** The partition's messages after the group's committed offset, when this session claimed it. */
const AFTER_COMMITTED = `FROM bus_messages
  WHERE current_setting('bus.claimed') = 'true' AND topic = $2 AND partition = $3
    AND seq > (SELECT committed FROM bus_offsets WHERE group_name = $4 AND topic = $2 AND partition = $3)`;
/**
 * The claim and, when granted, the partition's messages after the group's committed offset, in one
 * round trip (simple protocol). The read is a statement of its own so that its snapshot is taken
 * after the lock was granted: the previous owner committed before it unlocked. The grant travels to
 * the next statements in a session setting. A claim that finds nothing (a notified message another
 * member handled) is given back by the third statement: it unlocks only when it, later than the
 * read, still finds nothing, so the caller holds the lock exactly when `released` is not true.
 */
const CLAIM_AND_FETCH = `SELECT set_config('bus.claimed', pg_try_advisory_lock(hashtext($1), $3)::text, false) = 'true' AS locked;
  SELECT id, key, seq, value, published_at, headers ${AFTER_COMMITTED} ORDER BY seq LIMIT $5;
  SELECT CASE WHEN current_setting('bus.claimed') = 'true' AND NOT EXISTS (SELECT 1 ${AFTER_COMMITTED})
    THEN pg_advisory_unlock(hashtext($1), $3) ELSE false END AS released`;
const commitOffset = preparedQuery(
  'bus-commit',
  'UPDATE bus_offsets SET committed = $4, updated_at = now() WHERE group_name = $1 AND topic = $2 AND partition = $3 AND committed < $4',
);
/**
 * The last offset and the release in one round trip (simple protocol). The explicit transaction is
 * what makes it safe: a session lock is released at once, not at commit, so in the implicit
 * transaction of a multi-statement query the next owner could claim the partition and read the
 * offset before this UPDATE committed, and handle the batch again.
 */
const COMMIT_AND_RELEASE =
  'BEGIN; UPDATE bus_offsets SET committed = $4, updated_at = now() WHERE group_name = $1 AND topic = $2 AND partition = $3 AND committed < $4; COMMIT; SELECT pg_advisory_unlock(hashtext($5), $3)';
/** After a failed release: ends the transaction it may have left open, and unlocks if it did not. */
const ROLLBACK_AND_RELEASE = 'ROLLBACK; SELECT pg_advisory_unlock(hashtext($1), $2)';

export interface MessageRow {
  id: number;
  key: string;
  seq: number;
  value: unknown;
  published_at: Date;
  headers: Record<string, unknown> | null;
}

export interface Unit {
  topic: string;
  partition: number;
}

export type Connection = Awaited<ReturnType<Db['connect']>>;

/** A dedicated connection outside the pool; its queries run one at a time (pg 9 drops client-side queueing). */
export class Session {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly connection: Connection) {}

  run<T>(query: (connection: Connection) => Promise<T>): Promise<T> {
    const result = this.tail.then(() => query(this.connection));
    this.tail = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await (this.connection.done() as Promise<void> | undefined)?.catch(() => undefined);
  }
}

/** The NOTIFY payload of a publish to the partition, and a subscription's name for it. */
export const unitName = (unit: Unit) => `${unit.topic}\u001f${unit.partition}`;
export const unitOf = (name: string): Unit | null => {
  const at = name.lastIndexOf('\u001f');
  const partition = Number(name.slice(at + 1));
  return at > 0 && Number.isInteger(partition) && partition >= 0 && partition < PARTITIONS ? { topic: name.slice(0, at), partition } : null;
};

const lockName = (group: string, topic: string) => `bus\u001f${group}\u001f${topic}`;

/** The partition's next batch when this session could claim it and it holds one, else null (not claimed). */
export async function claimPartition(session: Session, group: string, unit: Unit): Promise<MessageRow[] | null> {
  const lock = lockName(group, unit.topic);
  try {
    const [claimed, rows, given] = (await session.run((c) => c.multi(CLAIM_AND_FETCH, [lock, unit.topic, unit.partition, group, BATCH]))) as [
      Array<{ locked: boolean }>,
      MessageRow[],
      Array<{ released: boolean }>,
    ];
    // Claimed with an empty read and not given back: a message came in between; the worker finds nothing and releases.
    return claimed[0]?.locked && !given[0]?.released ? rows : null;
  } catch (error) {
    // The lock may have been granted before the read failed: give it back (an unlock of a lock not
    // held is only a warning), as this session never claims a partition it is working.
    await session.run((c) => c.one(releasePartition(lock, unit.partition))).catch(() => undefined);
    throw error;
  }
}

/** Commits an offset through the lock holder's session: fails if the session (and lock) is gone. */
export function commitOnSession(session: Session, group: string, unit: Unit, seq: number): Promise<null> {
  return session.run((c) => c.none(commitOffset(group, unit.topic, unit.partition, seq)));
}

/** Commits the worker's last offset (when it left one) and releases the partition. */
export async function releaseClaim(session: Session, group: string, unit: Unit, offset: number | null, signal: AbortSignal, logger: Logger): Promise<void> {
  const lock = lockName(group, unit.topic);
  try {
    await session.run((c) =>
      offset === null ? c.one(releasePartition(lock, unit.partition)) : c.multi(COMMIT_AND_RELEASE, [group, unit.topic, unit.partition, offset, lock]),
    );
  } catch (error) {
    // Uncommitted, the offset is handled again by the next claim (at least once).
    if (!signal.aborted) logger.warn({ err: error, topic: unit.topic, partition: unit.partition }, 'bus partition release failed (its offset, if any, is handled again)');
    // A failed UPDATE leaves the explicit transaction open and aborted, and the partition locked:
    // every later query of the session would fail and no member could claim the partition again.
    await session.run((c) => c.multi(ROLLBACK_AND_RELEASE, [lock, unit.partition])).catch(() => undefined);
  }
}
