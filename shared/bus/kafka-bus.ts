// The cluster bus (KAFKA_BROKERS set): kafkajs 2.2.4. Same contract as the PostgreSQL bus
// (test/bus-contract.ts): keyed messages, consumer groups, per-partition order, commit after the
// handler, retries with backoff inside the handler loop, then `<topic>.dlq`.
import { Kafka, logLevel, type Admin, type Consumer, type IHeaders, type LogEntry, type Producer } from 'kafkajs';
import type { Logger } from '../logger.ts';
import { currentTraceHeaders, tracing, type TraceHeaders } from '../tracing.ts';
import {
  DeadLetterCounts,
  dlqTopic,
  errorMessage,
  handleWithRetries,
  subscribeSettings,
  type Bus,
  type BusMessage,
  type MessageHandler,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
} from './bus.ts';

export interface KafkaBusOptions {
  brokers: string[];
  logger: Logger;
  clientId: string;
  /** Partitions of the topics this bus creates (default 6; Kafka cannot lower it later). */
  partitions?: number;
  /** -1: the broker's default.replication.factor. */
  replicationFactor?: number;
  /** How long subscribe waits for the consumer to join its group (default 30 s). */
  joinTimeoutMs?: number;
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

export class KafkaBus implements Bus {
  private readonly knownTopics = new Set<string>();
  private readonly groupTopics = new Map<string, Set<string>>();
  private readonly subscriptions = new Set<() => Promise<void>>();
  private readonly deadLetterCounts = new DeadLetterCounts();
  private closed = false;

  private constructor(
    private readonly kafka: Kafka,
    private readonly admin: Admin,
    private readonly producer: Producer,
    private readonly logger: Logger,
    private readonly options: KafkaBusOptions,
  ) {}

  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const logger = options.logger.child({ component: 'bus', bus: 'kafka' });
    const kafka = new Kafka({ clientId: options.clientId, brokers: options.brokers, logLevel: logLevel.WARN, logCreator: pinoLogCreator(logger) });
    const admin = kafka.admin();
    // kafkajs marks the idempotent producer experimental. It gives broker-side de-duplication of
    // producer retries; one request in flight keeps the partition order even when a send is retried.
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    try {
      await admin.connect();
      await producer.connect();
    } catch (error) {
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
      throw new Error(`KAFKA_BROKERS: cannot connect to ${options.brokers.join(',')}: ${errorMessage(error)}`);
    }
    logger.info({ brokers: options.brokers }, 'kafka bus connected');
    return new KafkaBus(kafka, admin, producer, logger, options);
  }

  /** Creates the topics that do not exist yet (never relies on broker auto-creation). */
  async ensureTopics(topics: string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((topic) => !this.knownTopics.has(topic));
    if (missing.length === 0) return;
    const existing = new Set(await this.admin.listTopics());
    const create = missing.filter((topic) => !existing.has(topic));
    if (create.length > 0) {
      // Returns false, not an error, when another process created them first.
      await this.admin.createTopics({
        waitForLeaders: true,
        topics: create.map((topic) => ({
          topic,
          numPartitions: this.options.partitions ?? 6,
          replicationFactor: this.options.replicationFactor ?? -1,
        })),
      });
      this.logger.info({ topics: create }, 'kafka topics created');
    }
    for (const topic of missing) this.knownTopics.add(topic);
  }

  publish(topic: string, key: string, value: unknown): Promise<void> {
    return this.publishMany([{ topic, key, value }]);
  }

  async publishMany(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    if (messages.length === 0) return;
    // The publisher's trace context rides in the record headers (a message without its own).
    const trace = tracing ? currentTraceHeaders() : undefined;
    const byTopic = new Map<string, { key: string; value: string; headers?: IHeaders }[]>();
    for (const message of messages) {
      if (typeof message.topic !== 'string' || message.topic === '') throw new TypeError('bus message needs a topic');
      if (typeof message.key !== 'string') throw new TypeError('bus message key must be a string');
      let list = byTopic.get(message.topic);
      if (!list) byTopic.set(message.topic, (list = []));
      const headers = message.headers ?? trace;
      list.push({ key: message.key, value: JSON.stringify(message.value ?? null), ...(headers ? { headers } : {}) });
    }
    await this.ensureTopics([...byTopic.keys()]);
    // The default partitioner hashes the key (murmur2): one key, one partition, publishing order kept.
    await this.producer.sendBatch({ topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })) });
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    if (!group) throw new TypeError('subscribe needs a consumer group');
    if (topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    const settings = subscribeSettings(options);
    const unique = [...new Set(topics)];
    await this.ensureTopics([...unique, ...unique.map(dlqTopic)]);
    let known = this.groupTopics.get(group);
    if (!known) this.groupTopics.set(group, (known = new Set()));
    for (const topic of unique) known.add(topic);

    const logger = this.logger.child({ group });
    this.deadLetterCounts.subscribed(group, unique);
    const consumer: Consumer = this.kafka.consumer({ groupId: group, allowAutoTopicCreation: false });
    const abort = new AbortController();
    let joined: () => void = () => {};
    const joinedOnce = new Promise<void>((resolve) => (joined = resolve));
    consumer.on(consumer.events.GROUP_JOIN, () => joined());
    consumer.on(consumer.events.CRASH, (event) => logger.error({ err: event.payload.error, restart: event.payload.restart }, 'kafka consumer crashed'));

    const stop = async () => {
      abort.abort(); // ends backoff waits; the message in backoff stays uncommitted and is redelivered
      await consumer.disconnect(); // waits for the eachMessage in flight, then leaves the group
    };
    try {
      await consumer.connect();
      // A group without committed offsets starts at the oldest retained message. With startAt 'latest'
      // it skips what lay below each partition's end when subscribe was called: Kafka's own
      // auto.offset.reset=latest is read only after the join, and would drop messages sent meanwhile.
      const floors = settings.startAt === 'latest' ? await this.uncommittedEnds(group, unique) : new Map<string, bigint>();
      await consumer.subscribe({ topics: unique, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: settings.concurrency,
        eachMessage: async ({ topic, partition, message, heartbeat }) => {
          const floor = floors.get(`${topic}/${partition}`);
          if (floor !== undefined && BigInt(message.offset) < floor) return; // before this group started (startAt 'latest')
          const id = `${topic}/${partition}/${message.offset}`;
          const raw = message.value?.toString('utf8') ?? 'null';
          const base: Omit<BusMessage, 'attempt' | 'value'> = { topic, key: message.key?.toString('utf8') ?? '', id, publishedAt: new Date(Number(message.timestamp)) };
          const trace = traceHeaders(message.headers);
          if (trace) base.headers = trace;
          let value: unknown = raw;
          let parseError: unknown = null;
          try {
            value = JSON.parse(raw);
          } catch (error) {
            parseError = new Error(`message value is not JSON: ${errorMessage(error)}`);
          }
          // A heartbeat that fails during a backoff (rebalance) throws out of here: kafkajs rejoins and redelivers.
          const outcome = parseError
            ? ({ outcome: 'failed', error: parseError } as const)
            : await handleWithRetries(handler, { ...base, value }, settings, abort.signal, logger, heartbeat, group);
          if (outcome.outcome === 'aborted') return; // not committed: redelivered after the restart
          if (outcome.outcome === 'failed') {
            logger.error({ err: outcome.error, topic, key: base.key, messageId: id, attempts: settings.maxAttempts }, 'message sent to the dead-letter topic after its last attempt');
            await this.sendToDlq({ ...base, value, attempt: settings.maxAttempts }, message.value, group, settings.maxAttempts, outcome.error);
          }
          // Committed only now: a crash before this line redelivers this message, and only this one, per partition.
          await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
        },
      });
      await withTimeout(joinedOnce, this.options.joinTimeoutMs ?? 30_000, `consumer group ${group} did not join within the timeout`);
    } catch (error) {
      await stop().catch(() => undefined);
      throw error;
    }
    this.subscriptions.add(stop);
    let stopping: Promise<void> | null = null;
    return {
      stop: () =>
        (stopping ??= stop().finally(() => {
          this.subscriptions.delete(stop);
        })),
    };
  }

  /** For partitions where the group has no committed offset: the end offset now. */
  private async uncommittedEnds(group: string, topics: string[]): Promise<Map<string, bigint>> {
    const ends = new Map<string, bigint>();
    for (const { topic, partitions } of await this.admin.fetchOffsets({ groupId: group, topics })) {
      const committed = new Map(partitions.map((p) => [p.partition, Number(p.offset)]));
      for (const mark of await this.admin.fetchTopicOffsets(topic)) {
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
    await this.producer.send({ topic: dlqTopic(message.topic), messages: [{ key: message.key, value: rawValue, headers }] });
  }

  deadLetters() {
    return this.deadLetterCounts.snapshot();
  }

  async lag(group: string): Promise<Record<string, number>> {
    const topics = [...(this.groupTopics.get(group) ?? [])];
    const committed = await this.admin.fetchOffsets(topics.length > 0 ? { groupId: group, topics } : { groupId: group });
    const lag: Record<string, number> = {};
    for (const { topic, partitions } of committed) {
      const watermarks = await this.admin.fetchTopicOffsets(topic);
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.subscriptions].map((stop) => stop()));
    this.subscriptions.clear();
    await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
  }
}

/** traceparent/tracestate of a record's headers, when it has them. */
function traceHeaders(headers: IHeaders | undefined): TraceHeaders | undefined {
  const text = (value: IHeaders[string]) => (value === undefined ? undefined : (Array.isArray(value) ? value[0] : value)?.toString());
  const traceparent = headers ? text(headers.traceparent) : undefined;
  if (!traceparent) return undefined;
  const tracestate = text(headers!.tracestate);
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
