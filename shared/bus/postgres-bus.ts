// The in-process default bus: a partitioned log in PostgreSQL (schemas/migrations/006_bus.sql) with
// Kafka's consumer-group semantics, so several `actors` replicas can share one database.
//
// This file puts the parts together behind the Bus interface, and prunes what retention let go:
//   postgres-append.ts        publishing: partition by key, dense offsets, NOTIFY at commit
//   postgres-subscription.ts  a subscription: LISTEN, which partitions to claim, the handler loop
//   postgres-claims.ts        the session's advisory-lock claims and the offset commits
import type { Db, Writer } from '../db/database.ts';
import type { Logger } from '../runtime/logger.ts';
import {
  combineHealth,
  dlqTopic,
  errorMessage,
  subscribeSettings,
  type Bus,
  type BusHealth,
  type BusMessage,
  type MessageHandler,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
  DeadLetterCounts,
} from './bus.ts';
import { appendMessages, type StoredMessage } from './postgres-append.ts';
import { PostgresSubscription, TOUCH_EVERY_MS } from './postgres-subscription.ts';

export { PARTITIONS, partitionFor } from './postgres-append.ts';

const DEFAULT_POLL_MS = 500;
const DAY_MS = 86_400_000;

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

  private append(messages: StoredMessage[], writer: Writer = this.db): Promise<void> {
    return appendMessages(writer, messages);
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    if (!group) throw new TypeError('subscribe needs a consumer group');
    if (topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    const subscription = new PostgresSubscription((message, group, attempts, error) => this.sendToDlq(message, group, attempts, error), this.db, this.logger.child({ group }), group, [...new Set(topics)], handler, {
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
