// The cluster bus (KAFKA_BROKERS set): kafkajs 2.2.4. Same contract as the PostgreSQL bus
// (test/bus-contract.ts): keyed messages, consumer groups, per-partition order, commit after the
// handler, retries with backoff inside the handler loop, then `<topic>.dlq`.
//
// Consuming: `eachBatch` with auto-commit and auto-resolve off. A fetched run of one partition goes
// to SubscribeOptions.batch in chunks (all or nothing; on failure the chunk is handled again message
// by message through the handler); each handled message is resolved and its offset committed through
// `commitOffsetsIfNecessary(offsets)`, which kafkajs does not skip while the consumer stops (its
// `commitOffsets` in `eachMessage` returns without committing once stop() began). stop() lets the
// run in flight finish its current message, commits it, then leaves the group.
//
// Publishing: calls are queued and sent together, one request in flight (order kept), each send
// bounded by PUBLISH_TIMEOUT_MS with a log line and a counter. The producer is not idempotent:
// kafkajs's idempotent producer retries without end, so a frozen broker would block every
// publisher silently; a retried send can duplicate a message, which the idempotent actors absorb.
import { Kafka, logLevel, Partitioners, type Admin, type SASLOptions, type Consumer, type IHeaders, type KafkaMessage, type LogEntry, type Producer } from 'kafkajs';
import { readFileSync } from 'node:fs';
import { ConfigError, type KafkaSecurity } from '../runtime/config.ts';
import type { Logger } from '../runtime/logger.ts';
import { currentTraceHeaders, inConsumerSpans, tracing, type TraceHeaders } from '../runtime/tracing.ts';
import {
  combineHealth,
  DeadLetterCounts,
  dlqTopic,
  errorMessage,
  handleWithRetries,
  subscribeSettings,
  type Bus,
  type BusHealth,
  type BusMessage,
  type ComponentHealth,
  type MessageHandler,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
} from './bus.ts';
import { topicSpec } from './topics.ts';

export interface KafkaBusOptions {
  brokers: string[];
  logger: Logger;
  clientId: string;
  /** TLS and SASL (KAFKA_SSL*, KAFKA_SASL_*); plaintext without authentication when absent. */
  security?: KafkaSecurity;
  /** -1: the broker's default.replication.factor. */
  replicationFactor?: number;
  /** Longest wait for one publish (queue wait included) before it fails (default 15 s). */
  publishTimeoutMs?: number;
  /** Longest wait for the first connection at start (default 15 s). */
  connectTimeoutMs?: number;
  /** A consumer with no heartbeat, fetch or join for this long is reported unhealthy (default 20 s). */
  staleAfterMs?: number;
}

const DEFAULT_PUBLISH_TIMEOUT_MS = 15_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const DEFAULT_STALE_AFTER_MS = 20_000;
/** Messages handed to SubscribeOptions.batch at once (one transaction of the actor). */
const BATCH_CHUNK = 500;
/** Messages per produce request when queued publishes are sent together. */
const SEND_CHUNK = 2_000;

/** kafkajs's `ssl` and `sasl` options; the CA file is read here, once, at connect. */
export function kafkaClientSecurity(security: KafkaSecurity | undefined): { ssl?: true | { ca: string[] }; sasl?: SASLOptions } {
  const out: ReturnType<typeof kafkaClientSecurity> = {};
  if (security?.tls) {
    if (security.tls.caFile === null) {
      out.ssl = true;
    } else {
      try {
        out.ssl = { ca: [readFileSync(security.tls.caFile, 'utf8')] };
      } catch (error) {
        throw new ConfigError('KAFKA_SSL_CA_FILE', `cannot read ${security.tls.caFile}: ${(error as Error).message}`);
      }
    }
  }
  if (security?.sasl) out.sasl = { mechanism: security.sasl.mechanism, username: security.sasl.username, password: security.sasl.password } as SASLOptions;
  return out;
}

/** kafkajs log lines into pino, at the same levels. */
function pinoLogCreator(logger: Logger) {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, ...extra } = log;
      const fields = { kafkajs: namespace, ...extra };
      if (level === logLevel.ERROR) logger.error(fields, message);
      else if (level === logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.info(fields, message);
      else logger.debug(fields, message);
    };
}

/** True when the error (or one of its causes) says a topic or partition does not exist. */
export function isUnknownTopicError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const e = current as { type?: string; message?: string; cause?: unknown; originalError?: unknown };
    if (e.type === 'UNKNOWN_TOPIC_OR_PARTITION' || e.type === 'UNKNOWN_TOPIC_ID') return true;
    if (typeof e.message === 'string' && /does not host this topic-partition|unknown topic/i.test(e.message)) return true;
    current = e.cause ?? e.originalError;
  }
  return false;
}

class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimeoutError(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

interface QueuedPublish {
  messages: { topic: string; key: string; value: string; headers?: IHeaders }[];
  deadline: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface ConsumerState {
  group: string;
  topics: string[];
  /** Last heartbeat, fetch or join (or the subscribe call, so a starting consumer has its grace period). */
  aliveAt: number;
  crashedAt: number | null;
  lastError: string | null;
}

export class KafkaBus implements Bus {
  private readonly knownTopics = new Set<string>();
  private readonly groupTopics = new Map<string, Set<string>>();
  private readonly subscriptions = new Set<() => Promise<void>>();
  private readonly consumers = new Set<ConsumerState>();
  private readonly queue: QueuedPublish[] = [];
  private readonly deadLetterCounts = new DeadLetterCounts();
  private sending = false;
  private closed = false;
  private producerError: { at: number; message: string } | null = null;
  private readonly counts = {
    publish_timeouts: 0,
    publish_failures: 0,
    consumer_crashes: 0,
    topics_created: 0,
    topic_cache_resets: 0,
  };

  /** Replaced after an unknown-topic error: kafkajs keeps asking for the metadata of every topic it once saw. */
  private adminStale = false;
  private adminReplacing: Promise<Admin> | null = null;

  private constructor(
    private readonly kafka: Kafka,
    private admin: Admin,
    private readonly producer: Producer,
    private readonly logger: Logger,
    private readonly options: KafkaBusOptions,
  ) {}

  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const logger = options.logger.child({ component: 'bus', bus: 'kafka' });
    const kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...kafkaClientSecurity(options.security),
      logLevel: logLevel.WARN,
      logCreator: pinoLogCreator(logger),
      connectionTimeout: 3_000,
      requestTimeout: 10_000,
      retry: { retries: 5, maxRetryTime: 5_000 },
    });
    const admin = kafka.admin();
    // One request in flight keeps the partition order when a send is retried. The partitioner is
    // named (murmur2 on the key, Java-compatible) so kafkajs does not warn about its v2 default.
    const producer = kafka.producer({
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 2, maxRetryTime: 3_000 },
    });
    const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    try {
      await withTimeout(Promise.all([admin.connect(), producer.connect()]), timeoutMs, `no answer within ${timeoutMs} ms`);
    } catch (error) {
      logger.error({ err: error, brokers: options.brokers, timeoutMs }, 'kafka bus cannot connect');
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
      throw new Error(`KAFKA_BROKERS: cannot connect to ${options.brokers.join(',')}: ${errorMessage(error)}`);
    }
    logger.info({ brokers: options.brokers }, 'kafka bus connected');
    return new KafkaBus(kafka, admin, producer, logger, options);
  }

  /** The admin client, a fresh one after a topic vanished (the old one's metadata requests keep failing). */
  private async adminClient(): Promise<Admin> {
    if (!this.adminStale) return this.admin;
    this.adminReplacing ??= (async () => {
      const fresh = this.kafka.admin();
      await fresh.connect();
      const old = this.admin;
      this.admin = fresh;
      this.adminStale = false;
      await old.disconnect().catch(() => undefined);
      return fresh;
    })().finally(() => {
      this.adminReplacing = null;
    });
    return this.adminReplacing;
  }

  /**
   * Creates the topics that do not exist yet (never relies on broker auto-creation), with the
   * partitions and retention of shared/bus/topics.ts (what k8s/base/kafka.yaml declares).
   */
  async ensureTopics(topics: string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((topic) => !this.knownTopics.has(topic));
    if (missing.length === 0) return;
    const admin = await this.adminClient();
    const existing = new Set(await admin.listTopics());
    const create = missing.filter((topic) => !existing.has(topic));
    if (create.length > 0) {
      // Returns false, not an error, when another process created them first.
      await admin.createTopics({
        waitForLeaders: true,
        topics: create.map((topic) => {
          const spec = topicSpec(topic);
          return {
            topic,
            numPartitions: spec.partitions,
            replicationFactor: this.options.replicationFactor ?? -1,
            configEntries: [
              { name: 'retention.ms', value: String(spec.retentionMs) },
              { name: 'cleanup.policy', value: 'delete' },
            ],
          };
        }),
      });
      this.counts.topics_created += create.length;
      this.logger.info({ topics: create }, 'kafka topics created');
    }
    for (const topic of missing) this.knownTopics.add(topic);
  }

  /** After an unknown-topic error: forget what exists, so the next call re-creates what vanished. */
  private forgetTopics(error: unknown, context: string): void {
    this.knownTopics.clear();
    this.adminStale = true;
    this.counts.topic_cache_resets++;
    this.logger.warn({ err: error, context }, 'a topic is missing: the topic cache is cleared and missing topics are created again');
  }

  publish(topic: string, key: string, value: unknown): Promise<void> {
    return this.publishMany([{ topic, key, value }]);
  }

  publishMany(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('bus is closed'));
    if (messages.length === 0) return Promise.resolve();
    for (const message of messages) {
      if (typeof message.topic !== 'string' || message.topic === '') return Promise.reject(new TypeError('bus message needs a topic'));
      if (typeof message.key !== 'string') return Promise.reject(new TypeError('bus message key must be a string'));
    }
    // The publisher's trace context rides in the record headers (a message without its own).
    const trace = tracing ? currentTraceHeaders() : undefined;
    return this.enqueue(
      messages.map((m) => {
        const headers = m.headers ?? trace;
        return { topic: m.topic, key: m.key, value: JSON.stringify(m.value ?? null), ...(headers ? { headers: { ...headers } } : {}) };
      }),
    );
  }

  /** Queues messages for the sender; settles when they are acknowledged, or fails at the deadline. */
  private enqueue(messages: QueuedPublish['messages']): Promise<void> {
    const timeoutMs = this.options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ messages, deadline: Date.now() + timeoutMs, resolve, reject });
      void this.pump();
    });
  }

  /**
   * The sender: while a request is in flight, later publishes wait in the queue and then go out
   * together in the next request (pipelined), in publishing order.
   */
  private async pump(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const taken: QueuedPublish[] = [];
        let size = 0;
        while (this.queue.length > 0 && (taken.length === 0 || size + this.queue[0]!.messages.length <= SEND_CHUNK)) {
          const next = this.queue.shift()!;
          taken.push(next);
          size += next.messages.length;
        }
        const now = Date.now();
        const live = taken.filter((entry) => {
          if (entry.deadline > now) return true;
          this.failPublish(entry, new TimeoutError('publish timed out while waiting to be sent'), 'timeout');
          return false;
        });
        if (live.length === 0) continue;
        const deadline = Math.max(...live.map((entry) => entry.deadline));
        try {
          await withTimeout(this.send(live.flatMap((entry) => entry.messages)), Math.max(1, deadline - Date.now()), 'publish timed out');
          this.producerError = null;
          for (const entry of live) entry.resolve();
        } catch (error) {
          const reason = error instanceof TimeoutError ? 'timeout' : 'failure';
          this.producerError = { at: Date.now(), message: errorMessage(error) };
          this.logger.error({ err: error, messages: size, reason }, 'kafka publish failed');
          for (const entry of live) this.failPublish(entry, error, reason, false);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private failPublish(entry: QueuedPublish, error: unknown, reason: 'timeout' | 'failure', log = true): void {
    if (reason === 'timeout') this.counts.publish_timeouts++;
    else this.counts.publish_failures++;
    if (log) this.logger.error({ err: error, messages: entry.messages.length, reason }, 'kafka publish failed');
    entry.reject(error);
  }

  /** One produce call per topic set; an unknown topic clears the cache, re-creates it and sends once more. */
  private async send(messages: QueuedPublish['messages']): Promise<void> {
    const byTopic = new Map<string, { key: string; value: string; headers?: IHeaders }[]>();
    for (const { topic, ...message } of messages) {
      let list = byTopic.get(topic);
      if (!list) byTopic.set(topic, (list = []));
      list.push(message);
    }
    const attempt = async () => {
      await this.ensureTopics([...byTopic.keys()]);
      // The partitioner hashes the key (murmur2): one key, one partition, publishing order kept.
      await this.producer.sendBatch({ topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })) });
    };
    try {
      await attempt();
    } catch (error) {
      if (!isUnknownTopicError(error)) throw error;
      this.forgetTopics(error, 'publish');
      await attempt();
    }
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    if (!group) throw new TypeError('subscribe needs a consumer group');
    if (topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    const settings = subscribeSettings(options);
    const batchHandler = options?.batch;
    const unique = [...new Set(topics)];
    await this.ensureTopics([...unique, ...unique.map(dlqTopic)]);
    let known = this.groupTopics.get(group);
    if (!known) this.groupTopics.set(group, (known = new Set()));
    for (const topic of unique) known.add(topic);

    const logger = this.logger.child({ group });
    this.deadLetterCounts.subscribed(group, unique);
    const abort = new AbortController();
    const consumer: Consumer = this.kafka.consumer({
      groupId: group,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 1_000,
      // kafkajs restarts a crashed consumer; never one that was stopped while it was still joining.
      retry: { restartOnFailure: async () => !abort.signal.aborted },
    });
    const state: ConsumerState = { group, topics: unique, aliveAt: Date.now(), crashedAt: null, lastError: null };
    const alive = () => {
      state.aliveAt = Date.now();
    };
    let markJoined: () => void = () => undefined;
    const joined = new Promise<void>((resolve) => (markJoined = resolve));
    consumer.on(consumer.events.GROUP_JOIN, () => {
      alive();
      markJoined();
    });
    consumer.on(consumer.events.HEARTBEAT, alive);
    consumer.on(consumer.events.FETCH, alive);
    consumer.on(consumer.events.CRASH, (event) => {
      this.counts.consumer_crashes++;
      state.crashedAt = Date.now();
      state.lastError = errorMessage(event.payload.error);
      logger.error({ err: event.payload.error, restart: event.payload.restart }, 'kafka consumer crashed');
      if (isUnknownTopicError(event.payload.error)) {
        this.forgetTopics(event.payload.error, `consumer ${group}`);
        this.ensureTopics([...unique, ...unique.map(dlqTopic)]).catch((error: unknown) => logger.warn({ err: error }, 'cannot re-create the topics'));
      }
    });

    const stop = async () => {
      abort.abort(); // ends backoff waits; the message in backoff stays uncommitted and is redelivered
      // Stops fetching, waits for the run in flight (which commits what it handled), leaves the group.
      await consumer.disconnect();
      this.consumers.delete(state);
      if (options?.ephemeral) {
        await (await this.adminClient()).deleteGroups([group]).catch((error: unknown) => logger.warn({ err: error }, 'cannot delete the fan-out consumer group'));
      }
    };
    try {
      await consumer.connect();
      // A group without committed offsets starts at the oldest retained message. With startAt 'latest'
      // it skips what lay below each partition's end when subscribe was called: Kafka's own
      // auto.offset.reset=latest is read only after the join, and would drop messages sent meanwhile.
      const floors = settings.startAt === 'latest' ? await this.uncommittedEnds(group, unique) : new Map<string, bigint>();
      await consumer.subscribe({ topics: unique, fromBeginning: true });
      // Not awaited: kafkajs's run() resolves only after the group join, which after a kill -9 waits
      // for the dead member's session to time out. The join happens in the background; readiness
      // reports a consumer that has not joined (or heartbeated) within staleAfterMs.
      const running = consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: settings.concurrency,
        eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
          const { topic, partition } = batch;
          const commit = async (offset: string) => {
            resolveOffset(offset);
            // Explicit offsets: committed even while the consumer stops (see the file comment).
            await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: (BigInt(offset) + 1n).toString() }] }] });
          };
          const floor = floors.get(`${topic}/${partition}`);
          const wanted: KafkaMessage[] = [];
          let skipped: string | null = null;
          for (const message of batch.messages) {
            if (floor !== undefined && BigInt(message.offset) < floor) skipped = message.offset; // before this group started (startAt 'latest')
            else wanted.push(message);
          }
          if (skipped !== null && wanted.length === 0) return commit(skipped);
          const decoded = wanted.map((message) => decode(topic, partition, message));

          for (let start = 0; start < decoded.length; ) {
            if (!isRunning() || isStale() || abort.signal.aborted) return; // the rest is fetched again by the next owner
            const chunk = decoded.slice(start, start + BATCH_CHUNK);
            // Fast path: a run that parsed, handled at once; all or nothing.
            if (batchHandler && chunk.length > 1 && chunk.every((m) => m.parseError === null)) {
              try {
                const messages = chunk.map((m) => ({ ...m.message, attempt: 1 }));
                await (tracing ? inConsumerSpans(group, messages, () => batchHandler(messages)) : batchHandler(messages));
                await commit(chunk[chunk.length - 1]!.offset);
                await heartbeat();
                start += chunk.length;
                continue;
              } catch (error) {
                if (abort.signal.aborted) return;
                logger.warn({ err: error, topic, partition, messages: chunk.length }, 'batch failed; handling its messages one by one');
              }
            }
            for (const item of chunk) {
              if (!isRunning() || isStale() || abort.signal.aborted) return;
              // A heartbeat that fails during a backoff (rebalance) throws out of here: kafkajs rejoins and redelivers.
              const outcome = item.parseError
                ? ({ outcome: 'failed', error: item.parseError } as const)
                : await handleWithRetries(handler, item.message, settings, abort.signal, logger, heartbeat, group);
              if (outcome.outcome === 'aborted') return; // not committed: redelivered after the restart
              if (outcome.outcome === 'failed') {
                logger.error({ err: outcome.error, topic, key: item.message.key, messageId: item.message.id, attempts: settings.maxAttempts }, 'message sent to the dead-letter topic after its last attempt');
                await this.sendToDlq({ ...item.message, attempt: settings.maxAttempts }, item.raw, group, settings.maxAttempts, outcome.error);
              }
              // Committed only now: a crash before this line redelivers this message, and only this one, per partition.
              await commit(item.offset);
            }
            start += chunk.length;
            await heartbeat();
          }
        },
      });
      running.catch((error: unknown) => {
        state.crashedAt = Date.now();
        state.lastError = errorMessage(error);
        logger.error({ err: error }, 'kafka consumer failed to start');
      });
    } catch (error) {
      await stop().catch(() => undefined);
      throw error;
    }
    this.consumers.add(state);
    this.subscriptions.add(stop);
    let stopping: Promise<void> | null = null;
    return {
      stop: () =>
        (stopping ??= stop().finally(() => {
          this.subscriptions.delete(stop);
        })),
      joined: () => joined,
    };
  }

  /** For partitions where the group has no committed offset: the end offset now. */
  private async uncommittedEnds(group: string, topics: string[]): Promise<Map<string, bigint>> {
    const ends = new Map<string, bigint>();
    const admin = await this.adminClient();
    for (const { topic, partitions } of await admin.fetchOffsets({ groupId: group, topics })) {
      const committed = new Map(partitions.map((p) => [p.partition, Number(p.offset)]));
      for (const mark of await admin.fetchTopicOffsets(topic)) {
        if ((committed.get(mark.partition) ?? -1) < 0) ends.set(`${topic}/${mark.partition}`, BigInt(mark.high));
      }
    }
    return ends;
  }

  private async sendToDlq(message: BusMessage, rawValue: Buffer | null, group: string, attempts: number, error: unknown): Promise<void> {
    this.deadLetterCounts.add(group, message.topic);
    const headers: IHeaders = {
      ...message.headers, // the trace context, so the dead letter stays in its trace
      'x-source-topic': message.topic,
      'x-source-id': message.id,
      'x-group': group,
      'x-attempts': String(attempts),
      'x-error': errorMessage(error).slice(0, 1_000),
      'x-failed-at': new Date().toISOString(),
    };
    // Through the queue, so it is bounded like every publish; the raw bytes keep a non-JSON value as it was.
    await this.enqueue([{ topic: dlqTopic(message.topic), key: message.key, value: rawValue?.toString('utf8') ?? 'null', headers }]);
  }

  async lag(group: string): Promise<Record<string, number>> {
    const topics = [...(this.groupTopics.get(group) ?? [])];
    const admin = await this.adminClient();
    const committed = await admin.fetchOffsets(topics.length > 0 ? { groupId: group, topics } : { groupId: group });
    const lag: Record<string, number> = {};
    for (const { topic, partitions } of committed) {
      const watermarks = await admin.fetchTopicOffsets(topic);
      let total = 0;
      for (const mark of watermarks) {
        const offset = Number(partitions.find((p) => p.partition === mark.partition)?.offset ?? -1);
        // No commit yet: counted from the oldest retained message (what an 'earliest' group will read).
        const from = offset >= 0 ? offset : Number(mark.low);
        total += Math.max(Number(mark.high) - from, 0);
      }
      lag[topic] = total;
    }
    return lag;
  }

  health(): BusHealth {
    const now = Date.now();
    const staleAfter = this.options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
    const components: ComponentHealth[] = [];
    const waiting = this.queue.length > 0 ? now - Math.min(...this.queue.map((q) => q.deadline - (this.options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS))) : 0;
    // A failure counts for a while (callers such as the relay retry, renewing it while the broker is
    // down), so that a process whose last publish failed is not unready forever once nobody publishes.
    const recentFailure = this.producerError !== null && now - this.producerError.at < 2 * (this.options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS);
    const producerOk = !recentFailure && waiting < (this.options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS);
    components.push({
      name: 'producer',
      ok: producerOk,
      detail: producerOk ? null : recentFailure ? `last publish failed: ${this.producerError!.message}` : `a publish has waited ${waiting} ms`,
    });
    for (const c of this.consumers) {
      const crashed = c.crashedAt !== null && c.crashedAt >= c.aliveAt;
      const stale = now - c.aliveAt > staleAfter;
      const ok = !crashed && !stale;
      components.push({
        name: `consumer ${c.group}`,
        ok,
        detail: ok ? null : crashed ? `crashed: ${c.lastError}` : `no heartbeat, fetch or join for ${now - c.aliveAt} ms`,
      });
    }
    return combineHealth(components);
  }

  deadLetters() {
    return this.deadLetterCounts.snapshot();
  }

  counters(): Record<string, number> {
    return { ...this.counts };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.subscriptions].map((stop) => stop()));
    this.subscriptions.clear();
    // Publishes still queued get their answer (sent or timed out) before the producer goes.
    while (this.sending || this.queue.length > 0) {
      if (!this.sending) void this.pump();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }
}

/** A fetched message as the handler sees it, or the reason it cannot be parsed. */
function decode(topic: string, partition: number, message: KafkaMessage): { offset: string; raw: Buffer | null; message: Omit<BusMessage, 'attempt'>; parseError: Error | null } {
  const raw = message.value?.toString('utf8') ?? 'null';
  let value: unknown = raw;
  let parseError: Error | null = null;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    parseError = new Error(`message value is not JSON: ${errorMessage(error)}`);
  }
  return {
    offset: message.offset,
    raw: message.value,
    parseError,
    message: {
      topic, key: message.key?.toString('utf8') ?? '', value, id: `${topic}/${partition}/${message.offset}`, publishedAt: new Date(Number(message.timestamp)),
      ...withTrace(message.headers),
    },
  };
}

/** traceparent/tracestate of a record's headers, when it has them. */
function withTrace(headers: IHeaders | undefined): { headers?: TraceHeaders } {
  const text = (value: IHeaders[string]) => (value === undefined ? undefined : (Array.isArray(value) ? value[0] : value)?.toString());
  const traceparent = headers ? text(headers.traceparent) : undefined;
  if (!traceparent) return {};
  const tracestate = text(headers!.tracestate);
  return { headers: tracestate ? { traceparent, tracestate } : { traceparent } };
}
