// The cluster bus (KAFKA_BROKERS set): kafkajs 2.2.4. Same contract as the PostgreSQL bus
// (test/bus-contract.ts): keyed messages, consumer groups, per-partition order, commit after the
// handler, retries with backoff inside the handler loop, then `<topic>.dlq`.
//
// This file puts the parts together behind the Bus interface:
//   kafka-connection.ts   the client, TLS/SASL, the first connection, shared error helpers
//   kafka-topics.ts       topic creation, the topic cache, committed offsets and lag (admin client)
//   kafka-publisher.ts    the publish queue: batched sends, one in flight, each bounded in time
//   kafka-consumers.ts    one consumer per subscription: group join, crashes, readiness, stop
//   kafka-consume-loop.ts each fetched batch: handler, retries, dead letters, offset commits
import { combineHealth, DeadLetterCounts, type Bus, type BusHealth, type MessageHandler, type OutgoingMessage, type SubscribeOptions, type Subscription } from './bus.ts';
import { connectKafka, newKafkaCounts, type KafkaBusOptions, type KafkaCounts } from './kafka-connection.ts';
import { KafkaConsumers } from './kafka-consumers.ts';
import { KafkaPublisher } from './kafka-publisher.ts';
import { KafkaTopics } from './kafka-topics.ts';

export class KafkaBus implements Bus {
  private closed = false;

  private constructor(
    private readonly deadLetterCounts: DeadLetterCounts,
    private readonly topics: KafkaTopics,
    private readonly publisher: KafkaPublisher,
    private readonly consumers: KafkaConsumers,
    private readonly counts: KafkaCounts,
  ) {}

  static async connect(options: KafkaBusOptions): Promise<KafkaBus> {
    const { kafka, admin, producer, logger } = await connectKafka(options);
    const counts = newKafkaCounts();
    const topics = new KafkaTopics(kafka, admin, logger, counts, options.replicationFactor ?? -1);
    const publisher = new KafkaPublisher(producer, topics, logger, counts, options.publishTimeoutMs);
    const deadLetterCounts = new DeadLetterCounts();
    const consumers = new KafkaConsumers(kafka, topics, publisher, deadLetterCounts, logger, counts, options.staleAfterMs);
    return new KafkaBus(deadLetterCounts, topics, publisher, consumers, counts);
  }

  /** Creates the topics that do not exist yet, with the partitions and retention of topics.ts. */
  ensureTopics(topics: string[]): Promise<void> {
    return this.topics.ensure(topics);
  }

  publish(topic: string, key: string, value: unknown): Promise<void> {
    return this.publishMany([{ topic, key, value }]);
  }

  publishMany(messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('bus is closed'));
    return this.publisher.publishMany(messages);
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler, options?: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    return this.consumers.subscribe(group, topics, handler, options);
  }

  lag(group: string): Promise<Record<string, number>> {
    return this.topics.lag(group, this.consumers.topicsOf(group));
  }

  health(): BusHealth {
    return combineHealth([this.publisher.health(), ...this.consumers.health()]);
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
    await this.consumers.stopAll();
    // Publishes still queued get their answer (sent or timed out) before the producer goes.
    await this.publisher.drain();
    await Promise.allSettled([this.publisher.disconnect(), this.topics.disconnect()]);
  }
}
