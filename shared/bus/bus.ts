// The message bus actors talk through (ARCHITECTURE.md, "Bus, topics and actors"): Kafka when
// KAFKA_BROKERS is set, otherwise PostgreSQL tables in the application database. Both pass the same
// contract suite (test/bus-contract.ts).
import type { Db, Writer } from '../db/database.ts';
import type { Logger } from '../runtime/logger.ts';
import { extractContext, failSpan, inSpan, messageAttributes, SpanKind, tracing, type TraceHeaders } from '../runtime/tracing.ts';

export { dlqTopic, TOPICS } from './topics.ts';

export interface BusMessage<T = unknown> {
  topic: string;
  key: string;
  value: T;
  /** Stable across redeliveries of the same message. */
  id: string;
  /** 1 on the first delivery to this consumer, then 2, 3, ... while it is retried. */
  attempt: number;
  publishedAt: Date;
  /** Trace context of the publisher (W3C `traceparent`), present when it was tracing. */
  headers?: TraceHeaders;
}

/** A message to publish; `headers` carries a trace context (default: the active span's, when tracing). */
export interface OutgoingMessage {
  topic: string;
  key: string;
  value: unknown;
  headers?: TraceHeaders | undefined;
}

export interface SubscribeOptions {
  /**
   * Optional fast path: a run of messages of one partition, in order, handled at once and all or
   * nothing (one transaction instead of one per message). When it fails, the run is handled again
   * message by message through the handler, with its retries and the dead-letter topic. It must
   * have the effect of calling the handler for each message in order. Both buses use it.
   */
  batch?: (messages: BusMessage[]) => Promise<void>;
  /** Handler calls before the message goes to `<topic>.dlq` (default 5). */
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts (default 200 ms: 200, 400, 800, ...). */
  backoffMs?: number;
  /** Partitions worked in parallel (default 4); each partition is worked sequentially. */
  concurrency?: number;
  /**
   * Where a group without a committed position starts: 'earliest' (default) at the oldest retained
   * message, so an actor deployed after its producers misses nothing; 'latest' at the end as of
   * the subscribe call, for a per-process group such as cache invalidation that has nothing to
   * catch up on.
   */
  startAt?: 'earliest' | 'latest';
  /**
   * The group belongs to this subscription alone (a per-process fan-out group such as cache
   * invalidation): its committed positions are deleted when the subscription stops.
   */
  ephemeral?: boolean;
}

export interface Subscription {
  /** Stops taking messages, waits for the handlers in flight, releases the partitions. */
  stop(): Promise<void>;
  /**
   * Resolves once this member has joined its group (Kafka: the first group join, which subscribe
   * does not wait for; PostgreSQL: at once). For callers that must know the member takes part
   * before they publish, such as a test of how a group splits its work.
   */
  joined(): Promise<void>;
}

export type MessageHandler = (message: BusMessage) => Promise<void>;

export interface Bus {
  publish(topic: string, key: string, value: unknown): Promise<void>;
  publishMany(messages: OutgoingMessage[]): Promise<void>;
  /**
   * For a bus kept in the database `db` (PostgreSQL): a publish that appends through a writer, so
   * that the messages commit with the writer's other writes (the outbox relay's mark). Null, or
   * absent, for a broker or a bus kept elsewhere.
   */
  appenderFor?(db: Db): ((writer: Writer, messages: OutgoingMessage[]) => Promise<void>) | null;
  /** Consumer group semantics: each message is handled by one member of the group, at least once, in order per key; a failing message is retried with backoff, then goes to `<topic>.dlq` and the group moves on. */
  subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription>;
  /** Messages published and not yet handled by the group, per topic (for metrics). */
  lag(group: string): Promise<Record<string, number>>;
  /** Messages this process sent to `<topic>.dlq`, per consumer group and source topic, since start (for metrics). */
  deadLetters(): DeadLetterCount[];
  /** Whether each consumer and the publishing side work now (readiness and the bus_healthy metric). */
  health(): BusHealth;
  /** Counters of failures since start (publish timeouts, consumer crashes ...) for metrics. */
  counters(): Record<string, number>;
  close(): Promise<void>;
}

export interface ComponentHealth {
  /** What it is: `producer`, `consumer <group>`, `outbox relay`. */
  name: string;
  ok: boolean;
  /** Why it is not ok (English, for logs and operators); null when ok. */
  detail: string | null;
}

export interface BusHealth {
  ok: boolean;
  components: ComponentHealth[];
}

export function combineHealth(components: ComponentHealth[]): BusHealth {
  return { ok: components.every((c) => c.ok), components };
}

// ---- shared by both implementations ------------------------------------------------------------

export interface DeadLetterCount {
  group: string;
  topic: string;
  count: number;
}

/** Dead-letter counters; every subscribed (group, topic) starts at 0, so a first dead letter is an increase. */
export class DeadLetterCounts {
  private readonly counts = new Map<string, DeadLetterCount>();

  subscribed(group: string, topics: string[]): void {
    for (const topic of topics) if (!this.counts.has(`${group}\u0000${topic}`)) this.counts.set(`${group}\u0000${topic}`, { group, topic, count: 0 });
  }

  add(group: string, topic: string): void {
    const key = `${group}\u0000${topic}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { group, topic, count: 1 });
  }

  snapshot(): DeadLetterCount[] {
    return [...this.counts.values()].map((entry) => ({ ...entry }));
  }
}

export const SUBSCRIBE_DEFAULTS = { maxAttempts: 5, backoffMs: 200, concurrency: 4, startAt: 'earliest' } as const;

export type SubscribeSettings = Required<Omit<SubscribeOptions, 'batch' | 'ephemeral'>>;

export function subscribeSettings(options: SubscribeOptions = {}): SubscribeSettings {
  const positive = (value: number | undefined, fallback: number) =>
    value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    maxAttempts: Math.max(1, Math.floor(positive(options.maxAttempts, SUBSCRIBE_DEFAULTS.maxAttempts))),
    backoffMs: positive(options.backoffMs, SUBSCRIBE_DEFAULTS.backoffMs),
    concurrency: Math.max(1, Math.floor(positive(options.concurrency, SUBSCRIBE_DEFAULTS.concurrency))),
    startAt: options.startAt === 'latest' ? 'latest' : SUBSCRIBE_DEFAULTS.startAt,
  };
}

/** Wait before attempt `attempt + 1`: base, 2×base, 4×base ... capped at one minute. */
export const retryDelayMs = (attempt: number, backoffMs: number) => Math.min(backoffMs * 2 ** (attempt - 1), 60_000);

/** Resolves after `ms`, or at once (false) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs the handler until it succeeds or `maxAttempts` calls failed, sleeping with exponential
 * backoff in between. Returns the last error when every attempt failed, `aborted` when the
 * subscription stopped during a backoff (the message is then left uncommitted for redelivery).
 */
export function handleWithRetries(
  handler: MessageHandler,
  message: Omit<BusMessage, 'attempt'>,
  settings: SubscribeSettings,
  signal: AbortSignal,
  logger: Logger,
  whileWaiting?: () => Promise<void>,
  /** The consumer group (a span attribute when tracing). */
  group?: string,
): Promise<HandleOutcome> {
  const attempts = async (): Promise<HandleOutcome> => {
    let lastError: unknown;
    for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
      try {
        await handler({ ...message, attempt });
        return { outcome: 'handled' };
      } catch (error) {
        lastError = error;
        logger.warn({ err: error, topic: message.topic, key: message.key, messageId: message.id, attempt }, 'message handler failed');
      }
      if (attempt === settings.maxAttempts) break;
      // Sliced so that a Kafka consumer keeps heartbeating through a long backoff.
      for (let left = retryDelayMs(attempt, settings.backoffMs); left > 0; left -= 3_000) {
        await whileWaiting?.();
        if (!(await sleep(Math.min(left, 3_000), signal))) return { outcome: 'aborted' };
      }
      if (signal.aborted) return { outcome: 'aborted' };
    }
    return { outcome: 'failed', error: lastError };
  };
  if (!tracing) return attempts();
  // One consumer span per message (every attempt inside it), the child of the publisher's span.
  return inSpan(`consume ${message.topic}`, SpanKind.CONSUMER, messageAttributes(message.topic, message.key, message.id, group), async (span) => {
    const result = await attempts();
    if (result.outcome === 'failed') failSpan(span, result.error);
    return result;
  }, extractContext(message.headers));
}

type HandleOutcome = { outcome: 'handled' } | { outcome: 'failed'; error: unknown } | { outcome: 'aborted' };

/** A wake-up that is not lost when it fires while nobody waits. */
export class Wakeup {
  private pending = false;
  private release: (() => void) | null = null;

  notify(): void {
    if (this.release) this.release();
    else this.pending = true;
  }

  /** True when notified, false when `ms` passed first. */
  wait(ms: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), ms);
      const finish = (notified: boolean) => {
        clearTimeout(timer);
        this.release = null;
        resolve(notified);
      };
      this.release = () => finish(true);
    });
  }
}
