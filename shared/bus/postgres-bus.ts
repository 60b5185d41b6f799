// The in-process default bus: a partitioned log in PostgreSQL (schemas/migrations/006_bus.sql) with
// Kafka's consumer-group semantics, so several `actors` replicas can share one database.
//
// Partitions: a message goes to partition fnv1a(key) mod 8 of its topic and gets the next dense
// offset (`seq`) of that partition. One consumer works one partition at a time, in offset order,
// so messages of one key are handled in publishing order.
//
// Claims: each subscription opens one dedicated connection (its "session", outside the pool). It
// claims a (group, topic, partition) with a session-level `pg_try_advisory_lock`, LISTENs for new
// messages, and commits every offset through that same connection. A publish notifies each
// (topic, partition) it appended to, and a member claims those partitions directly; it reads which
// partitions have messages for its group only when it starts, after a fault, and on its polling
// fallback (a notification missed while a connection was down). While the session lives no other
// member can claim the partition; when the process dies, PostgreSQL ends the session and releases
// its locks, so another member takes over at once. Because commits go through the lock holder's own
// session, a member that lost its session (and so its locks) can never commit an offset; a handler it
// still had in flight may finish, which is one more at-least-once duplicate for an idempotent actor.
// Claiming and committing on one session (not `pg_try_advisory_xact_lock` in a transaction around
// the handler) keeps transactions short and pool connections free while handlers run.
import { preparedQuery, type Db, type Writer } from '../db/database.ts';
import { FailureStreak } from '../runtime/failure-streak.ts';
import type { Logger } from '../runtime/logger.ts';
import { currentTraceHeaders, inConsumerSpans, tracing, type TraceHeaders } from '../runtime/tracing.ts';
import {
  combineHealth,
  dlqTopic,
  errorMessage,
  handleWithRetries,
  subscribeSettings,
  type Bus,
  type BusHealth,
  type BusMessage,
  type MessageHandler,
  type OutgoingMessage,
  type SubscribeOptions,
  type SubscribeSettings,
  type Subscription,
  DeadLetterCounts,
  Wakeup,
} from './bus.ts';

/** Fixed: changing it would move keys to other partitions and break per-key order for a while. */
export const PARTITIONS = 8;
const CHANNEL = 'bus_messages';
const DEFAULT_POLL_MS = 500;
/** Messages handled per claim before the partition is released, so that busy partitions rotate. */
const BATCH = 100;
const DAY_MS = 86_400_000;
/** How often a running subscription marks its group alive (far below any sensible retention). */
const TOUCH_EVERY_MS = 3_600_000;

// What a consumer runs for every claim, prepared (`preparedQuery`).
const pendingPartitions = preparedQuery(
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

/** FNV-1a over the key's UTF-8 bytes: stable across processes and releases, unlike hashtext(). */
export function partitionFor(key: string, partitions = PARTITIONS): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

/** A row to append: trace context and, for dead letters, where the message came from. */
interface StoredMessage {
  topic: string;
  key: string;
  value: unknown;
  headers?: Record<string, unknown> | undefined;
}

interface MessageRow {
  id: number;
  key: string;
  seq: number;
  value: unknown;
  published_at: Date;
  headers: Record<string, unknown> | null;
}

export interface PostgresBusOptions {
  db: Db;
  logger: Logger;
  /** Fallback polling when a notification is missed (default 500 ms). */
  pollMs?: number;
  /** Handled or not, messages older than this are deleted (default 7 days; 0 keeps everything). */
  retentionMs?: number;
  pruneEveryMs?: number;
}

export class PostgresBus implements Bus {
  private readonly db: Db;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly retentionMs: number;
  private readonly subscriptions = new Set<PostgresSubscription>();
  private readonly deadLetterCounts = new DeadLetterCounts();
  private readonly pruneTimer: NodeJS.Timeout | null;
  private closed = false;

  constructor(options: PostgresBusOptions) {
    this.db = options.db;
    this.logger = options.logger.child({ component: 'bus', bus: 'postgres' });
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.retentionMs = options.retentionMs ?? 7 * DAY_MS;
    this.pruneTimer =
      this.retentionMs > 0
        ? setInterval(() => {
            this.prune().catch((error: unknown) => this.logger.warn({ err: error }, 'bus prune failed'));
          }, options.pruneEveryMs ?? 3_600_000).unref()
        : null;
  }

  async publish(topic: string, key: string, value: unknown): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    await this.append([{ topic, key, value }]);
  }

  async publishMany(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    await this.append(messages);
  }

  appenderFor(db: Db): ((writer: Writer, messages: OutgoingMessage[]) => Promise<void>) | null {
    if (db !== this.db) return null;
    return async (writer, messages) => {
      if (this.closed) throw new Error('bus is closed');
      await this.append(messages, writer);
    };
  }

  /** Copies a message that exhausted its attempts to `<topic>.dlq`, same key and value (also while the bus closes). */
  sendToDlq(message: BusMessage, group: string, attempts: number, error: unknown): Promise<void> {
    this.deadLetterCounts.add(group, message.topic);
    return this.append([
      {
        topic: dlqTopic(message.topic),
        key: message.key,
        value: message.value,
        headers: { ...message.headers, sourceTopic: message.topic, sourceId: message.id, group, attempts, error: errorMessage(error), failedAt: new Date().toISOString() },
      },
    ]);
  }

  /** Through `writer`, the append commits with the writer's transaction (a multi-statement query is one). */
  private async append(messages: StoredMessage[], writer: Writer = this.db): Promise<void> {
    if (messages.length === 0) return;
    // The publisher's trace context rides in the headers column (a message without its own).
    const trace = tracing ? currentTraceHeaders() : undefined;
    for (const message of messages) {
      if (typeof message.topic !== 'string' || message.topic === '') throw new TypeError('bus message needs a topic');
      if (typeof message.key !== 'string') throw new TypeError('bus message key must be a string');
    }
    // One round trip, one transaction: a multi-statement query runs as a single implicit transaction.
    // The NOTIFY of each (topic, partition) is delivered at commit. `heads` reserves a run of offsets per
    // (topic, partition); its row locks, taken in (topic, partition) order so that two publishers
    // never deadlock, are held until commit: appends to a partition commit in offset order.
    await writer.none(
      `SELECT pg_notify('${CHANNEL}', topic || chr(31) || partition) FROM (SELECT DISTINCT * FROM unnest($1::text[], $3::int[])) AS appended(topic, partition);
       WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::jsonb[], $5::jsonb[])
           WITH ORDINALITY AS m(topic, key, partition, value, headers, ord)
       ), counts AS (
         SELECT topic, partition, count(*) AS n FROM input GROUP BY topic, partition
       ), heads AS (
         INSERT INTO bus_partitions (topic, partition, head)
         SELECT topic, partition, n FROM counts ORDER BY topic COLLATE "C", partition
         ON CONFLICT (topic, partition) DO UPDATE SET head = bus_partitions.head + EXCLUDED.head
         RETURNING topic, partition, head
       )
       INSERT INTO bus_messages (topic, key, partition, seq, value, headers)
       SELECT i.topic, i.key, i.partition,
              h.head - c.n + row_number() OVER (PARTITION BY i.topic, i.partition ORDER BY i.ord),
              i.value, i.headers
       FROM input i
       JOIN counts c ON c.topic = i.topic AND c.partition = i.partition
       JOIN heads h ON h.topic = i.topic AND h.partition = i.partition
       ORDER BY i.ord`,
      [
        messages.map((m) => m.topic),
        messages.map((m) => m.key),
        messages.map((m) => partitionFor(m.key)),
        messages.map((m) => JSON.stringify(m.value ?? null)),
        messages.map((m) => {
          const headers = m.headers ?? trace;
          return headers ? JSON.stringify(headers) : null;
        }),
      ],
    );
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    if (!group) throw new TypeError('subscribe needs a consumer group');
    if (topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    const subscription = new PostgresSubscription(this, this.db, this.logger.child({ group }), group, [...new Set(topics)], handler, {
      ...subscribeSettings(options),
      pollMs: this.pollMs,
      ephemeral: options?.ephemeral === true,
      ...(options?.batch ? { batch: options.batch } : {}),
    });
    this.subscriptions.add(subscription);
    this.deadLetterCounts.subscribed(group, topics);
    try {
      await subscription.start();
    } catch (error) {
      this.subscriptions.delete(subscription);
      await subscription.stop().catch(() => undefined);
      throw error;
    }
    return { stop: () => subscription.stop().finally(() => this.subscriptions.delete(subscription)), joined: () => Promise.resolve() };
  }

  deadLetters() {
    return this.deadLetterCounts.snapshot();
  }

  async lag(group: string): Promise<Record<string, number>> {
    const rows = await this.db.any<{ topic: string; lag: number }>(
      `SELECT o.topic, sum(greatest(coalesce(p.head, 0) - o.committed, 0))::bigint AS lag
       FROM bus_offsets o
       LEFT JOIN bus_partitions p ON p.topic = o.topic AND p.partition = o.partition
       WHERE o.group_name = $1
       GROUP BY o.topic`,
      [group],
    );
    return Object.fromEntries(rows.map((row) => [row.topic, row.lag]));
  }

  health(): BusHealth {
    return combineHealth(
      [...this.subscriptions].map((subscription) => {
        const failing = subscription.failing();
        return { name: `consumer ${subscription.group}`, ok: failing === null, detail: failing };
      }),
    );
  }

  counters(): Record<string, number> {
    return {};
  }

  /**
   * Deletes messages past retention, handled or not (like Kafka's time retention), then the offsets
   * of groups that neither committed nor ran for as long (per-process groups of stopped processes),
   * like Kafka's offsets.retention. Such a group, back again, starts anew from what is retained.
   */
  async prune(): Promise<number> {
    if (this.retentionMs <= 0) return 0;
    const messages = await this.db.result("DELETE FROM bus_messages WHERE published_at < now() - $1 * interval '1 millisecond'", [this.retentionMs]);
    // Never within reach of a running subscription's touch, whatever the message retention.
    const offsetRetentionMs = Math.max(this.retentionMs, 2 * TOUCH_EVERY_MS);
    const offsets = await this.db.result("DELETE FROM bus_offsets WHERE updated_at < now() - $1 * interval '1 millisecond'", [offsetRetentionMs]);
    if (messages.rowCount + offsets.rowCount > 0) this.logger.info({ messages: messages.rowCount, offsets: offsets.rowCount }, 'pruned old bus messages and offsets');
    return messages.rowCount;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await Promise.allSettled([...this.subscriptions].map((subscription) => subscription.stop()));
    this.subscriptions.clear();
  }
}

interface Unit {
  topic: string;
  partition: number;
}

type Connection = Awaited<ReturnType<Db['connect']>>;

/** A dedicated connection outside the pool; its queries run one at a time (pg 9 drops client-side queueing). */
class Session {
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

/** The NOTIFY payload of a publish to the partition, and this subscription's name for it. */
const unitName = (unit: Unit) => `${unit.topic}\u001f${unit.partition}`;
const unitOf = (name: string): Unit | null => {
  const at = name.lastIndexOf('\u001f');
  const partition = Number(name.slice(at + 1));
  return at > 0 && Number.isInteger(partition) && partition >= 0 && partition < PARTITIONS ? { topic: name.slice(0, at), partition } : null;
};

class PostgresSubscription {
  private session: Session | null = null;
  private readonly working = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly wakeup = new Wakeup();
  private readonly topicSet: Set<string>;
  private loop: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  /** The error of the coordinating loop's last round, null when it went through. */
  private lastFailure: string | null = null;
  private readonly loopFailures: FailureStreak;
  /** Partitions to claim in the next round: notified by a publish, left for later, or with a full batch behind. */
  private readonly notified = new Set<string>();
  /** The next round reads every partition with messages for the group (start, a fault, a plain-topic notification). */
  private scan = true;

  constructor(
    private readonly bus: PostgresBus,
    private readonly db: Db,
    private readonly logger: Logger,
    readonly group: string,
    private readonly topics: string[],
    private readonly handler: MessageHandler,
    private readonly settings: SubscribeSettings & { pollMs: number; ephemeral: boolean; batch?: SubscribeOptions['batch'] },
  ) {
    this.topicSet = new Set(topics);
    this.loopFailures = new FailureStreak(logger, 'bus subscription loop');
  }

  /** Why this subscription cannot work now (its loop failed the last round), or null. */
  failing(): string | null {
    return this.lastFailure;
  }

  async start(): Promise<void> {
    // A new group starts at the oldest retained message (committed = 0, like Kafka's fromBeginning)
    // or, with startAt 'latest', at each partition's head. An existing group keeps its offsets.
    await this.db.none(
      `INSERT INTO bus_offsets (group_name, topic, partition, committed)
       SELECT $1, t.topic, p.partition, CASE WHEN $4 THEN coalesce(bp.head, 0) ELSE 0 END
       FROM unnest($2::text[]) AS t(topic)
       CROSS JOIN generate_series(0, $3 - 1) AS p(partition)
       LEFT JOIN bus_partitions bp ON bp.topic = t.topic AND bp.partition = p.partition
       ON CONFLICT (group_name, topic, partition) DO UPDATE SET updated_at = now()`,
      [this.group, this.topics, PARTITIONS, this.settings.startAt === 'latest'],
    );
    await this.openSession();
    this.loop = this.coordinate();
  }

  /** Marks the group alive, so that prune() only drops the offsets of groups gone for the retention period. */
  private async touch(): Promise<void> {
    await this.db.none('UPDATE bus_offsets SET updated_at = now() WHERE group_name = $1 AND topic = ANY($2::text[])', [this.group, this.topics]);
  }

  private async openSession(): Promise<Session> {
    let session: Session | null = null;
    const connection = await this.db.connect({
      direct: true,
      onLost: (error: unknown) => {
        if (session && this.session === session) this.session = null;
        this.scan = true;
        if (!this.abort.signal.aborted) this.logger.error({ err: error }, 'bus session lost: its partitions are released');
        this.wakeup.notify();
      },
    });
    connection.client.on('notification', (notification: { channel: string; payload?: string }) => {
      if (notification.channel !== CHANNEL || !notification.payload) return;
      const unit = unitOf(notification.payload);
      if (unit && this.topicSet.has(unit.topic)) this.notified.add(notification.payload);
      else if (this.topicSet.has(notification.payload)) this.scan = true; // a publisher of an earlier release names the topic alone
      else return;
      this.wakeup.notify();
    });
    await connection.none('LISTEN $1:name', [CHANNEL]);
    // Offset commits need not wait for the WAL flush: a server crash can only roll an offset back a
    // little, which redelivers (at least once), never skips. Publishing stays synchronous.
    await connection.none('SET synchronous_commit = off');
    session = new Session(connection);
    this.session = session;
    return session;
  }

  /** Claims partitions that have messages for this group while there are free slots. */
  private async coordinate(): Promise<void> {
    const { signal } = this.abort;
    let touchAt = Date.now() + TOUCH_EVERY_MS;
    let woken = false;
    while (!signal.aborted) {
      try {
        if (Date.now() >= touchAt) {
          touchAt = Date.now() + TOUCH_EVERY_MS;
          await this.touch();
        }
        // A lost session is reopened only once its workers are gone: they still believe they own their partitions.
        if (!this.session && this.working.size === 0) await this.openSession();
        const session = this.session;
        if (session && this.working.size < this.settings.concurrency) {
          // Taken before the read: a notification that comes during it is for the next round.
          const names = new Set(this.notified);
          this.notified.clear();
          if (this.scan || !woken) {
            this.scan = false;
            for (const unit of await this.db.any<Unit>(pendingPartitions(this.group, this.topics))) names.add(unitName(unit));
          }
          const order = [...names];
          shuffle(order);
          for (const name of order) {
            if (signal.aborted) break;
            const unit = unitOf(name);
            if (unit === null) continue;
            // Session locks stack within one session, so the slots of this subscription check locally.
            if (this.working.size >= this.settings.concurrency || this.working.has(name)) {
              this.notified.add(name); // for the round after a release
              continue;
            }
            const rows = await this.claim(session, unit);
            if (rows === null) continue;
            // The worker leaves its last offset uncommitted (`last`): the release commits it in the same round trip.
            let last: number | null = null;
            let more = false;
            const work = this.work(session, unit, rows, (seq) => (last = seq))
              .then((full) => {
                more = full;
              })
              .catch((error: unknown) => {
                if (!signal.aborted) this.logger.error({ err: error, topic: unit.topic, partition: unit.partition }, 'bus partition worker failed');
              })
              .finally(async () => {
                if (this.session === session) await this.release(session, unit, last);
                this.working.delete(name);
                if (more) this.notified.add(name);
                // Look again when something waits: a full batch, a partition a round passed over
                // (this one while busy, or no free slot), a read the fallback left for a free slot.
                if (this.notified.size > 0 || this.scan) this.wakeup.notify();
              });
            this.working.set(name, work);
          }
        } else if (session && !woken) this.scan = true; // every slot busy: the fallback's read waits for a release
        this.lastFailure = null;
        this.loopFailures.succeeded();
      } catch (error) {
        if (signal.aborted) break;
        this.lastFailure = errorMessage(error);
        this.scan = true;
        this.loopFailures.failed(error);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      woken = await this.wakeup.wait(this.settings.pollMs);
    }
  }

  /** The partition's next batch when this session could claim it and it holds one, else null (not claimed). */
  private async claim(session: Session, unit: Unit): Promise<MessageRow[] | null> {
    const lock = this.lockName(unit.topic);
    try {
      const [claimed, rows, given] = (await session.run((c) => c.multi(CLAIM_AND_FETCH, [lock, unit.topic, unit.partition, this.group, BATCH]))) as [
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

  /** Commits the worker's last offset (when it left one) and releases the partition. */
  private async release(session: Session, unit: Unit, offset: number | null): Promise<void> {
    const lock = this.lockName(unit.topic);
    try {
      await session.run((c) =>
        offset === null ? c.one(releasePartition(lock, unit.partition)) : c.multi(COMMIT_AND_RELEASE, [this.group, unit.topic, unit.partition, offset, lock]),
      );
    } catch (error) {
      // Uncommitted, the offset is handled again by the next claim (at least once).
      if (!this.abort.signal.aborted) this.logger.warn({ err: error, topic: unit.topic, partition: unit.partition }, 'bus partition release failed (its offset, if any, is handled again)');
      // A failed UPDATE leaves the explicit transaction open and aborted, and the partition locked:
      // every later query of the session would fail and no member could claim the partition again.
      await session.run((c) => c.multi(ROLLBACK_AND_RELEASE, [lock, unit.partition])).catch(() => undefined);
    }
  }

  private lockName(topic: string): string {
    return `bus\u001f${this.group}\u001f${topic}`;
  }

  /**
   * Handles the batch read at the claim, in offset order. Each offset is committed before
   * the next message is handled; the batch's last one is passed to `handled` for the release to
   * commit. True when the batch was full (the partition may hold more).
   */
  private async work(session: Session, unit: Unit, rows: MessageRow[], handled: (seq: number) => void): Promise<boolean> {
    const { signal } = this.abort;
    const commit = (seq: number) =>
      // Through the lock holder's session: fails, and stops this worker, if the session (and lock) is gone.
      session.run((c) => c.none(commitOffset(this.group, unit.topic, unit.partition, seq)));
    if (this.settings.batch && rows.length > 1 && !signal.aborted) {
      const messages = rows.map((row) => ({ ...this.toMessage(unit.topic, row), attempt: 1 }));
      const batch = this.settings.batch;
      try {
        await (tracing ? inConsumerSpans(this.group, messages, () => batch(messages)) : batch(messages));
        handled(rows[rows.length - 1]!.seq);
        return rows.length === BATCH;
      } catch (error) {
        this.logger.warn({ err: error, topic: unit.topic, partition: unit.partition, messages: rows.length }, 'batch failed; handling its messages one by one');
      }
    }
    let previous: number | null = null;
    for (const row of rows) {
      if (signal.aborted) break; // the rest is redelivered to whoever claims the partition next
      if (previous !== null) await commit(previous);
      previous = null;
      const message = this.toMessage(unit.topic, row);
      const result = await handleWithRetries(this.handler, message, this.settings, signal, this.logger, undefined, this.group);
      if (result.outcome === 'aborted') break;
      if (result.outcome === 'failed') {
        this.logger.error(
          { err: result.error, topic: unit.topic, key: row.key, messageId: message.id, attempts: this.settings.maxAttempts },
          'message sent to the dead-letter topic after its last attempt',
        );
        await this.bus.sendToDlq({ ...message, attempt: this.settings.maxAttempts }, this.group, this.settings.maxAttempts, result.error);
      }
      previous = row.seq;
    }
    if (previous !== null) handled(previous);
    return rows.length === BATCH && !signal.aborted;
  }

  private toMessage(topic: string, row: MessageRow): Omit<BusMessage, 'attempt'> {
    const message: Omit<BusMessage, 'attempt'> = { topic, key: row.key, value: row.value, id: String(row.id), publishedAt: row.published_at };
    if (typeof row.headers?.traceparent === 'string') message.headers = traceHeaders(row.headers);
    return message;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.abort.abort();
      this.wakeup.notify();
      await this.loop;
      await Promise.allSettled([...this.working.values()]);
      const session = this.session;
      this.session = null;
      // Closing the session releases every lock it still holds.
      if (session) await session.close();
      if (this.settings.ephemeral) {
        await this.db
          .none('DELETE FROM bus_offsets WHERE group_name = $1', [this.group])
          .catch((error: unknown) => this.logger.warn({ err: error }, 'cannot delete the fan-out consumer group'));
      }
    })();
    return this.stopping;
  }
}

/** The W3C trace-context entries of a stored headers object. */
function traceHeaders(headers: Record<string, unknown>): TraceHeaders {
  const result: TraceHeaders = { traceparent: String(headers.traceparent) };
  if (typeof headers.tracestate === 'string') result.tracestate = headers.tracestate;
  return result;
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
