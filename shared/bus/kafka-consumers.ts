// Consumer-group membership on Kafka: one kafkajs consumer per subscription, its group join,
// heartbeats and crashes (tracked for readiness), its start position, and its stop: stop() lets
// the run in flight finish its current message, commits it, then leaves the group (a fan-out
// group is deleted then). What the consumer does with each batch is in kafka-consume-loop.ts.
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from '../runtime/logger.ts';
import {
  dlqTopic,
  errorMessage,
  subscribeSettings,
  type ComponentHealth,
  type DeadLetterCounts,
  type MessageHandler,
  type SubscribeOptions,
  type Subscription,
} from './bus.ts';
import { consumeBatches } from './kafka-consume-loop.ts';
import { DEFAULT_STALE_AFTER_MS, isUnknownTopicError, type KafkaCounts } from './kafka-connection.ts';
import type { KafkaPublisher } from './kafka-publisher.ts';
import type { KafkaTopics } from './kafka-topics.ts';

interface ConsumerState {
  group: string;
  topics: string[];
  /** Last heartbeat, fetch or join (or the subscribe call, so a starting consumer has its grace period). */
  aliveAt: number;
  crashedAt: number | null;
  lastError: string | null;
}

export class KafkaConsumers {
  private readonly groupTopics = new Map<string, Set<string>>();
  private readonly subscriptions = new Set<() => Promise<void>>();
  private readonly consumers = new Set<ConsumerState>();

  constructor(
    private readonly kafka: Kafka,
    private readonly topics: KafkaTopics,
    private readonly publisher: KafkaPublisher,
    private readonly deadLetterCounts: DeadLetterCounts,
    private readonly logger: Logger,
    private readonly counts: KafkaCounts,
    private readonly staleAfterMs = DEFAULT_STALE_AFTER_MS,
  ) {}

  /** The topics the group subscribed to in this process. */
  topicsOf(group: string): string[] {
    return [...(this.groupTopics.get(group) ?? [])];
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (!group) throw new TypeError('subscribe needs a consumer group');
    if (topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    const settings = subscribeSettings(options);
    const unique = [...new Set(topics)];
    await this.topics.ensure([...unique, ...unique.map(dlqTopic)]);
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
        this.topics.forget(event.payload.error, `consumer ${group}`);
        this.topics.ensure([...unique, ...unique.map(dlqTopic)]).catch((error: unknown) => logger.warn({ err: error }, 'cannot re-create the topics'));
      }
    });

    const stop = async () => {
      abort.abort(); // ends backoff waits; the message in backoff stays uncommitted and is redelivered
      // Stops fetching, waits for the run in flight (which commits what it handled), leaves the group.
      await consumer.disconnect();
      this.consumers.delete(state);
      if (options?.ephemeral) {
        await (await this.topics.adminClient()).deleteGroups([group]).catch((error: unknown) => logger.warn({ err: error }, 'cannot delete the fan-out consumer group'));
      }
    };
    try {
      await consumer.connect();
      // A group without committed offsets starts at the oldest retained message. With startAt 'latest'
      // it skips what lay below each partition's end when subscribe was called: Kafka's own
      // auto.offset.reset=latest is read only after the join, and would drop messages sent meanwhile.
      const floors = settings.startAt === 'latest' ? await this.topics.uncommittedEnds(group, unique) : new Map<string, bigint>();
      await consumer.subscribe({ topics: unique, fromBeginning: true });
      // Not awaited: kafkajs's run() resolves only after the group join, which after a kill -9 waits
      // for the dead member's session to time out. The join happens in the background; readiness
      // reports a consumer that has not joined (or heartbeated) within staleAfterMs.
      const running = consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: settings.concurrency,
        eachBatch: consumeBatches({
          group, handler, batchHandler: options?.batch, settings, floors, signal: abort.signal, logger,
          publisher: this.publisher, deadLetterCounts: this.deadLetterCounts,
        }),
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

  /** Each consumer's readiness: not crashed since it was last alive, and alive within staleAfterMs. */
  health(now = Date.now()): ComponentHealth[] {
    return [...this.consumers].map((c) => {
      const crashed = c.crashedAt !== null && c.crashedAt >= c.aliveAt;
      const stale = now - c.aliveAt > this.staleAfterMs;
      const ok = !crashed && !stale;
      return {
        name: `consumer ${c.group}`,
        ok,
        detail: ok ? null : crashed ? `crashed: ${c.lastError}` : `no heartbeat, fetch or join for ${now - c.aliveAt} ms`,
      };
    });
  }

  /** Stops every subscription (each commits what it handled and leaves its group). */
  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.subscriptions].map((stop) => stop()));
    this.subscriptions.clear();
  }
}
