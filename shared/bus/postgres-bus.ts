// The in-process default bus: a partitioned log in PostgreSQL (schemas/migrations/006_bus.sql) with
// Kafka's consumer-group semantics, so several `actors` replicas can share one database.
//
// Partitions: a message goes to partition fnv1a(key) mod 8 of its topic and gets the next dense
// offset (`seq`) of that partition. One consumer works one partition at a time, in offset order,
// so messages of one key are handled in publishing order.
//
// Claims: each subscription opens one dedicated connection (its "session", outside the pool). It
// claims a (group, topic, partition) with a session-level `pg_try_advisory_lock`, LISTENs for new
// messages, and commits every offset through that same connection. While the session lives no other
// member can claim the partition; when the process dies, PostgreSQL ends the session and releases
// its locks, so another member takes over at once. Because commits go through the lock holder's own
// session, a member that lost its session (and so its locks) can never commit an offset.
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import {
  dlqTopic,
  errorMessage,
  handleWithRetries,
  subscribeSettings,
  type Bus,
  type BusMessage,
  type MessageHandler,
  type SubscribeOptions,
  type Subscription,
  Wakeup,
} from './bus.ts';

/** Fixed: changing it would move keys to other partitions and break per-key order for a while. */
export const PARTITIONS = 8;
const CHANNEL = 'bus_messages';
const DEFAULT_POLL_MS = 500;
/** Messages handled per claim before the partition is released, so that busy partitions rotate. */
const BATCH = 100;
const DAY_MS = 86_400_000;

/** FNV-1a over the key's UTF-8 bytes: stable across processes and releases, unlike hashtext(). */
export function partitionFor(key: string, partitions = PARTITIONS): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

interface OutgoingMessage {
  topic: string;
  key: string;
  value: unknown;
  headers?: Record<string, unknown>;
}

interface MessageRow {
  id: number;
  key: string;
  seq: number;
  value: unknown;
  published_at: Date;
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

  publish(topic: string, key: string, value: unknown): Promise<void> {
    return this.append([{ topic, key, value }]);
  }

  publishMany(messages: { topic: string; key: string; value: unknown }[]): Promise<void> {
    return this.append(messages);
  }

  /** Copies a message that exhausted its attempts to `<topic>.dlq`, same key and value. */
  sendToDlq(message: BusMessage, group: string, attempts: number, error: unknown): Promise<void> {
    return this.append([
      {
        topic: dlqTopic(message.topic),
        key: message.key,
        value: message.value,
        headers: { sourceTopic: message.topic, sourceId: message.id, group, attempts, error: errorMessage(error), failedAt: new Date().toISOString() },
      },
    ]);
  }

  private async append(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    if (messages.length === 0) return;
    const batches = new Map<string, { topic: string; partition: number; messages: OutgoingMessage[] }>();
    for (const message of messages) {
      if (typeof message.topic !== 'string' || message.topic === '') throw new TypeError('bus message needs a topic');
      if (typeof message.key !== 'string') throw new TypeError('bus message key must be a string');
      const partition = partitionFor(message.key);
      const name = `${message.topic}\u0000${partition}`;
      let batch = batches.get(name);
      if (!batch) batches.set(name, (batch = { topic: message.topic, partition, messages: [] }));
      batch.messages.push(message);
    }
    // Partition rows are locked in one global order so that two publishers never deadlock.
    const ordered = [...batches.values()].sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
    await this.db.tx('bus-publish', async (tx) => {
      for (const batch of ordered) {
        const count = batch.messages.length;
        // The row lock taken here is held until commit: appends to one partition commit in offset order.
        const { head } = await tx.one<{ head: number }>(
          `INSERT INTO bus_partitions (topic, partition, head) VALUES ($1, $2, $3)
           ON CONFLICT (topic, partition) DO UPDATE SET head = bus_partitions.head + EXCLUDED.head
           RETURNING head`,
          [batch.topic, batch.partition, count],
        );
        await tx.none(
          `INSERT INTO bus_messages (topic, key, partition, seq, value, headers)
           SELECT $1, m.key, $2, $3 + m.ord - 1, m.value, m.headers
           FROM unnest($4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY AS m(key, value, headers, ord)`,
          [
            batch.topic,
            batch.partition,
            head - count + 1,
            batch.messages.map((m) => m.key),
            batch.messages.map((m) => JSON.stringify(m.value ?? null)),
            batch.messages.map((m) => (m.headers ? JSON.stringify(m.headers) : null)),
          ],
        );
      }
      for (const topic of new Set(ordered.map((batch) => batch.topic))) await tx.none('SELECT pg_notify($1, $2)', [CHANNEL, topic]);
    });
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    if (!group) throw new TypeError('subscribe needs a consumer group');
    if (topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    const subscription = new PostgresSubscription(this, this.db, this.logger.child({ group }), group, [...new Set(topics)], handler, {
      ...subscribeSettings(options),
      pollMs: this.pollMs,
    });
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      this.subscriptions.delete(subscription);
      await subscription.stop().catch(() => undefined);
      throw error;
    }
    return { stop: () => subscription.stop().finally(() => this.subscriptions.delete(subscription)) };
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

  /** Deletes messages past retention, handled or not (like Kafka's time retention). */
  async prune(): Promise<number> {
    if (this.retentionMs <= 0) return 0;
    const result = await this.db.result("DELETE FROM bus_messages WHERE published_at < now() - $1 * interval '1 millisecond'", [this.retentionMs]);
    if (result.rowCount > 0) this.logger.info({ deleted: result.rowCount }, 'pruned old bus messages');
    return result.rowCount;
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

/** A dedicated connection outside the pool. */
type Session = Awaited<ReturnType<Db['connect']>>;

const unitName = (unit: Unit) => `${unit.topic}\u0000${unit.partition}`;

class PostgresSubscription {
  private session: Session | null = null;
  private readonly working = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly wakeup = new Wakeup();
  private readonly topicSet: Set<string>;
  private loop: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly bus: PostgresBus,
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly group: string,
    private readonly topics: string[],
    private readonly handler: MessageHandler,
    private readonly settings: Required<SubscribeOptions> & { pollMs: number },
  ) {
    this.topicSet = new Set(topics);
  }

  async start(): Promise<void> {
    // A new group starts at the oldest retained message (committed = 0), like Kafka's fromBeginning.
    await this.db.none(
      `INSERT INTO bus_offsets (group_name, topic, partition)
       SELECT $1, t.topic, p.partition FROM unnest($2::text[]) AS t(topic), generate_series(0, $3 - 1) AS p(partition)
       ON CONFLICT DO NOTHING`,
      [this.group, this.topics, PARTITIONS],
    );
    await this.openSession();
    this.loop = this.coordinate();
  }

  private async openSession(): Promise<Session> {
    const session = (await this.db.connect({
      direct: true,
      onLost: (error: unknown) => {
        if (this.session === session) this.session = null;
        if (!this.abort.signal.aborted) this.logger.error({ err: error }, 'bus session lost: its partitions are released');
        this.wakeup.notify();
      },
    }));
    session.client.on('notification', (notification: { channel: string; payload?: string }) => {
      if (notification.channel === CHANNEL && notification.payload && this.topicSet.has(notification.payload)) this.wakeup.notify();
    });
    await session.none('LISTEN $1:name', [CHANNEL]);
    this.session = session;
    return session;
  }

  /** Claims partitions that have messages for this group while there are free slots. */
  private async coordinate(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      try {
        // A lost session is reopened only once its workers are gone: they still believe they own their partitions.
        if (!this.session && this.working.size === 0) await this.openSession();
        const session = this.session;
        if (session && this.working.size < this.settings.concurrency) {
          const pending = await this.db.any<Unit>(
            `SELECT p.topic, p.partition FROM bus_partitions p
             JOIN bus_offsets o ON o.group_name = $1 AND o.topic = p.topic AND o.partition = p.partition
             WHERE p.topic = ANY($2::text[]) AND p.head > o.committed`,
            [this.group, this.topics],
          );
          shuffle(pending);
          for (const unit of pending) {
            if (signal.aborted || this.working.size >= this.settings.concurrency) break;
            const name = unitName(unit);
            // Session locks stack within one session, so the slots of this subscription check locally.
            if (this.working.has(name)) continue;
            const { locked } = await session.one<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), $2) AS locked', [
              this.lockName(unit.topic),
              unit.partition,
            ]);
            if (!locked) continue;
            const work = this.work(session, unit)
              .catch((error: unknown) => {
                if (!signal.aborted) this.logger.error({ err: error, topic: unit.topic, partition: unit.partition }, 'bus partition worker failed');
              })
              .finally(async () => {
                if (this.session === session)
                  await session.one('SELECT pg_advisory_unlock(hashtext($1), $2)', [this.lockName(unit.topic), unit.partition]).catch(() => undefined);
                this.working.delete(name);
                this.wakeup.notify();
              });
            this.working.set(name, work);
          }
        }
      } catch (error) {
        if (signal.aborted) break;
        this.logger.error({ err: error }, 'bus subscription loop failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      await this.wakeup.wait(this.settings.pollMs);
    }
  }

  private lockName(topic: string): string {
    return `bus\u0000${this.group}\u0000${topic}`;
  }

  /** Handles up to one batch of a claimed partition in offset order, committing after each message. */
  private async work(session: Session, unit: Unit): Promise<void> {
    const { signal } = this.abort;
    // Read after the lock: the previous owner committed before it unlocked.
    const { committed } = await session.one<{ committed: number }>(
      'SELECT committed FROM bus_offsets WHERE group_name = $1 AND topic = $2 AND partition = $3',
      [this.group, unit.topic, unit.partition],
    );
    const rows = await this.db.any<MessageRow>(
      `SELECT id, key, seq, value, published_at FROM bus_messages
       WHERE topic = $1 AND partition = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
      [unit.topic, unit.partition, committed, BATCH],
    );
    for (const row of rows) {
      if (signal.aborted) return; // the rest is redelivered to whoever claims the partition next
      const message = { topic: unit.topic, key: row.key, value: row.value, id: String(row.id), publishedAt: row.published_at };
      const result = await handleWithRetries(this.handler, message, this.settings, signal, this.logger);
      if (result.outcome === 'aborted') return;
      if (result.outcome === 'failed') {
        this.logger.error(
          { err: result.error, topic: unit.topic, key: row.key, messageId: message.id, attempts: this.settings.maxAttempts },
          'message sent to the dead-letter topic after its last attempt',
        );
        await this.bus.sendToDlq({ ...message, attempt: this.settings.maxAttempts }, this.group, this.settings.maxAttempts, result.error);
      }
      // Through the lock holder's session: fails, and stops this worker, if the session (and lock) is gone.
      await session.none(
        `UPDATE bus_offsets SET committed = $4, updated_at = now()
         WHERE group_name = $1 AND topic = $2 AND partition = $3 AND committed < $4`,
        [this.group, unit.topic, unit.partition, row.seq],
      );
    }
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
      if (session) await (session.done() as Promise<void> | undefined)?.catch(() => undefined);
    })();
    return this.stopping;
  }
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
