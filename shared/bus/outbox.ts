// Transactional outbox (ARCHITECTURE.md, "Bus, topics and actors"): a write and the message about it
// commit in one transaction; the relay publishes unsent entries and marks them sent.
//
// One relay is active among all processes: it holds a session-level advisory lock on a dedicated
// connection and reads and marks entries through that same connection. The others poll the lock
// and take over within `pollMs` when the active relay's session ends (process killed, connection
// lost). Delivery to Kafka is at least once: a relay that dies between publishing and marking
// publishes the batch again on takeover, which idempotent consumers absorb. The PostgreSQL bus takes
// a batch and its mark in one transaction: once.
//
// Order: entries are published in id order. Ids are taken at insert, so two transactions that
// commit in the other order can be published in commit order instead; a writer that appends the
// entry after its row write (the row lock orders the writers) keeps one entity's entries in order.
import { preparedQuery, WriteBatch, type Db, type Queryable, type Writer } from '../db/database.ts';
import type { Logger } from '../runtime/logger.ts';
import { startExclusiveLoop, type Session } from '../db/exclusive-loop.ts';
import { errorMessage, type Bus, type ComponentHealth, type OutgoingMessage } from './bus.ts';
import { currentTraceHeaders, extractContext, messageAttributes, SpanKind, startSpan, traceContextOf, tracing, type TraceHeaders } from '../runtime/tracing.ts';

/** Key of the relay's advisory lock (single-bigint form; the migrator uses 7_281_001). */
const RELAY_LOCK = 7_281_006;
const CHANNEL = 'outbox';
const DAY_MS = 86_400_000;

export interface OutboxEntry {
  topic: string;
  key: string;
  payload: unknown;
}

const appendEntries = preparedQuery(
  'outbox-append',
  `INSERT INTO outbox (topic, key, payload, trace_context)
   SELECT topic, key, payload::jsonb, $4::jsonb FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS e(topic, key, payload, n) ORDER BY n`,
);
const unsentEntries = preparedQuery('outbox-unsent', 'SELECT id, topic, key, payload, trace_context FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT $1');
const markSent = preparedQuery('outbox-mark-sent', 'UPDATE outbox SET sent_at = now() WHERE id = ANY($1::bigint[])');

/** Inserts the entries, in order, in the caller's transaction; the insert trigger wakes the relay at commit. */
export async function appendOutbox(tx: Writer, ...entries: OutboxEntry[]): Promise<void> {
  for (const entry of entries) {
    if (!entry.topic) throw new TypeError('outbox entry needs a topic');
    if (typeof entry.key !== 'string') throw new TypeError('outbox entry key must be a string');
  }
  if (entries.length === 0) return;
  // The writer's trace context (an admin request, a consumed message) goes with the entries.
  const trace = tracing ? currentTraceHeaders() : undefined;
  await tx.none(
    appendEntries(entries.map((e) => e.topic), entries.map((e) => e.key), entries.map((e) => JSON.stringify(e.payload ?? null)), trace ? JSON.stringify(trace) : null),
  );
}

/** Entries not yet published, whichever process relays them. */
export async function outboxBacklog(db: Queryable): Promise<number> {
  return (await db.one<{ count: number }>('SELECT count(*)::bigint AS count FROM outbox WHERE sent_at IS NULL')).count;
}

/** Seconds since the oldest unpublished entry was written (0 when none waits): a stuck relay shows here first. */
export async function outboxOldestUnsentAge(db: Queryable): Promise<number> {
  const row = await db.oneOrNone<{ age: number }>('SELECT extract(epoch FROM now() - created_at)::float8 AS age FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 1');
  return Math.max(row?.age ?? 0, 0);
}

export interface OutboxRelayOptions {
  db: Db;
  bus: Bus;
  logger: Logger;
  /** Polling fallback and standby lock retries (default 500 ms). */
  pollMs?: number;
  batchSize?: number;
  /** Sent entries older than this are deleted (default 7 days; 0 keeps them). */
  retentionMs?: number;
}

export interface OutboxRelay {
  stop(): Promise<void>;
  /** Entries not yet published. */
  backlog(): Promise<number>;
  /** Not ok while its last round failed (a publish that timed out) or a round has run too long. */
  health(): ComponentHealth;
}

/** A relay round (read, publish, mark) running longer than this makes the relay unhealthy. */
const STUCK_AFTER_MS = 20_000;

interface OutboxRow {
  id: number;
  topic: string;
  key: string;
  payload: unknown;
  trace_context: TraceHeaders | null;
}

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { db, bus } = options;
  const batchSize = options.batchSize ?? 500;
  const retentionMs = options.retentionMs ?? 7 * DAY_MS;
  let nextPruneAt = 0;

  // A bus kept in this database takes the batch and its mark in one transaction, one round trip:
  // published exactly once. Both commit asynchronously (the session's setting): a server crash can
  // lose the two together, as if the relay had not run, and the entries are published again.
  const appendHere = bus.appenderFor?.(db) ?? null;

  /** Publishes the entries' messages and marks the entries sent. */
  const publishAndMark = async (session: Session, messages: OutgoingMessage[], ids: number[]) => {
    if (appendHere) {
      const batch = new WriteBatch();
      await appendHere(batch, messages);
      await batch.none(markSent(ids));
      await batch.run(session);
      return;
    }
    await bus.publishMany(messages);
    // Through the lock holder's session: if it is gone, this fails and the next relay publishes again.
    await session.none(markSent(ids));
  };

  /** One batch: read unsent entries, publish, mark sent. True when a full batch suggests more waiting. */
  const relayBatch = async (current: Session): Promise<boolean> => {
    const rows = await current.any<OutboxRow>(unsentEntries(batchSize));
    if (rows.length > 0) {
      const ids = rows.map((row) => row.id);
      if (tracing) await publishTraced(rows, (messages) => publishAndMark(current, messages, ids));
      else await publishAndMark(current, rows.map((row) => ({ topic: row.topic, key: row.key, value: row.payload })), ids);
    }
    if (rows.length === batchSize) return true;
    if (retentionMs > 0 && Date.now() >= nextPruneAt) {
      nextPruneAt = Date.now() + 3_600_000;
      await current.result("DELETE FROM outbox WHERE sent_at < now() - $1 * interval '1 millisecond'", [retentionMs]);
    }
    return false;
  };

  /** A producer span per entry, the child of the write that appended it; the message carries that span's context. */
  const publishTraced = async (rows: OutboxRow[], publish: (messages: OutgoingMessage[]) => Promise<void>) => {
    const spans = rows.map((row) => startSpan(`outbox publish ${row.topic}`, SpanKind.PRODUCER, { ...messageAttributes(row.topic, row.key), 'outbox.id': row.id }, extractContext(row.trace_context)));
    const messages: OutgoingMessage[] = rows.map((row, i) => ({ topic: row.topic, key: row.key, value: row.payload, headers: currentTraceHeaders(traceContextOf(spans[i]!)) }));
    try {
      await publish(messages);
    } catch (error) {
      for (const span of spans) span.recordException(error as Error);
      throw error;
    } finally {
      for (const span of spans) span.end();
    }
  };

  const loop = startExclusiveLoop({
    db,
    logger: options.logger.child({ component: 'outbox-relay' }),
    name: 'outbox relay',
    lockKey: RELAY_LOCK,
    channel: CHANNEL,
    pollMs: options.pollMs ?? 500,
    // Marking sent need not wait for the WAL flush: losing a mark in a server crash re-publishes (at least once).
    prepare: async (session) => void (await session.none('SET synchronous_commit = off')),
    tick: async (session) => {
      roundSince = Date.now();
      try {
        const more = await relayBatch(session);
        lastFailure = null;
        return more;
      } catch (error) {
        lastFailure = errorMessage(error);
        throw error;
      } finally {
        roundSince = null;
      }
    },
  });
  let roundSince: number | null = null;
  let lastFailure: string | null = null;
  return {
    stop: loop.stop,
    backlog: () => outboxBacklog(db),
    health: () => {
      const running = roundSince === null ? 0 : Date.now() - roundSince;
      const ok = lastFailure === null && running < STUCK_AFTER_MS;
      return { name: 'outbox relay', ok, detail: ok ? null : lastFailure !== null ? `last round failed: ${lastFailure}` : `a round has run for ${running} ms` };
    },
  };
}
