// One subscription of a consumer group to the PostgreSQL bus: it LISTENs for new messages on its
// session, claims partitions that have messages for its group (up to its concurrency), works each
// claimed batch through the handler in offset order (retries, then the dead-letter topic), and
// releases the partition with its last offset. A publish notifies each (topic, partition) it
// appended to, and a member claims those partitions directly; it reads which partitions have
// messages for its group only when it starts, after a fault, and on its polling fallback (a
// notification missed while a connection was down). Claims and commits: postgres-claims.ts.
import type { Db } from '../db/database.ts';
import { FailureStreak } from '../runtime/failure-streak.ts';
import type { Logger } from '../runtime/logger.ts';
import { inConsumerSpans, tracing, type TraceHeaders } from '../runtime/tracing.ts';
import { errorMessage, handleWithRetries, Wakeup, type BusMessage, type MessageHandler, type SubscribeOptions, type SubscribeSettings } from './bus.ts';
import { CHANNEL, PARTITIONS } from './postgres-append.ts';
import { BATCH, claimPartition, commitOnSession, pendingPartitions, releaseClaim, Session, unitName, unitOf, type MessageRow, type Unit } from './postgres-claims.ts';

/** How often a running subscription marks its group alive (far below any sensible retention). */
export const TOUCH_EVERY_MS = 3_600_000;

/** Copies a message that exhausted its attempts to `<topic>.dlq`. */
export type DeadLetterSink = (message: BusMessage, group: string, attempts: number, error: unknown) => Promise<void>;

export type SubscriptionSettings = SubscribeSettings & { pollMs: number; ephemeral: boolean; batch?: SubscribeOptions['batch'] };

export class PostgresSubscription {
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
    private readonly deadLetter: DeadLetterSink,
    private readonly db: Db,
    private readonly logger: Logger,
    readonly group: string,
    private readonly topics: string[],
    private readonly handler: MessageHandler,
    private readonly settings: SubscriptionSettings,
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
            const rows = await claimPartition(session, this.group, unit);
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
                if (this.session === session) await releaseClaim(session, this.group, unit, last, signal, this.logger);
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

  /**
   * Handles the batch read at the claim, in offset order. Each offset is committed before
   * the next message is handled; the batch's last one is passed to `handled` for the release to
   * commit. True when the batch was full (the partition may hold more).
   */
  private async work(session: Session, unit: Unit, rows: MessageRow[], handled: (seq: number) => void): Promise<boolean> {
    const { signal } = this.abort;
    // Through the lock holder's session: fails, and stops this worker, if the session (and lock) is gone.
    const commit = (seq: number) => commitOnSession(session, this.group, unit, seq);
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
        await this.deadLetter({ ...message, attempt: this.settings.maxAttempts }, this.group, this.settings.maxAttempts, result.error);
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
