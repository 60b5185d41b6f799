// Publishing to Kafka: calls are queued and sent together, one request in flight (order kept),
// each send bounded by PUBLISH_TIMEOUT_MS with a log line and a counter. The producer is not
// idempotent: kafkajs's idempotent producer retries without end, so a frozen broker would block
// every publisher silently; a retried send can duplicate a message, which the idempotent actors
// absorb. Dead letters go through the same queue, so they are bounded like every publish.
import type { IHeaders, Producer } from 'kafkajs';
import type { Logger } from '../runtime/logger.ts';
import { currentTraceHeaders, tracing } from '../runtime/tracing.ts';
import { errorMessage, type ComponentHealth, type OutgoingMessage } from './bus.ts';
import { DEFAULT_PUBLISH_TIMEOUT_MS, isUnknownTopicError, TimeoutError, withTimeout, type KafkaCounts } from './kafka-connection.ts';
import type { KafkaTopics } from './kafka-topics.ts';

/** Messages per produce request when queued publishes are sent together. */
const SEND_CHUNK = 2_000;

/** A record as the producer sends it: the value already serialised. */
export type KafkaRecord = { topic: string; key: string; value: string; headers?: IHeaders };

interface QueuedPublish {
  messages: KafkaRecord[];
  deadline: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class KafkaPublisher {
  private readonly queue: QueuedPublish[] = [];
  private sending = false;
  private producerError: { at: number; message: string } | null = null;
  private readonly timeoutMs: number;

  constructor(
    private readonly producer: Producer,
    private readonly topics: KafkaTopics,
    private readonly logger: Logger,
    private readonly counts: KafkaCounts,
    publishTimeoutMs: number | undefined,
  ) {
    this.timeoutMs = publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  }

  publishMany(messages: OutgoingMessage[]): Promise<void> {
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
  enqueue(messages: KafkaRecord[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ messages, deadline: Date.now() + this.timeoutMs, resolve, reject });
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
  private async send(messages: KafkaRecord[]): Promise<void> {
    const byTopic = new Map<string, { key: string; value: string; headers?: IHeaders }[]>();
    for (const { topic, ...message } of messages) {
      let list = byTopic.get(topic);
      if (!list) byTopic.set(topic, (list = []));
      list.push(message);
    }
    const attempt = async () => {
      await this.topics.ensure([...byTopic.keys()]);
      // The partitioner hashes the key (murmur2): one key, one partition, publishing order kept.
      await this.producer.sendBatch({ topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })) });
    };
    try {
      await attempt();
    } catch (error) {
      if (!isUnknownTopicError(error)) throw error;
      this.topics.forget(error, 'publish');
      await attempt();
    }
  }

  /** The producer's readiness: unhealthy after a recent failure, or while a publish has waited its whole timeout. */
  health(): ComponentHealth {
    const now = Date.now();
    const waiting = this.queue.length > 0 ? now - Math.min(...this.queue.map((q) => q.deadline - this.timeoutMs)) : 0;
    // A failure counts for a while (callers such as the relay retry, renewing it while the broker is
    // down), so that a process whose last publish failed is not unready forever once nobody publishes.
    const recentFailure = this.producerError !== null && now - this.producerError.at < 2 * this.timeoutMs;
    const producerOk = !recentFailure && waiting < this.timeoutMs;
    return {
      name: 'producer',
      ok: producerOk,
      detail: producerOk ? null : recentFailure ? `last publish failed: ${this.producerError!.message}` : `a publish has waited ${waiting} ms`,
    };
  }

  /** Waits until every queued publish has its answer (sent or timed out). */
  async drain(): Promise<void> {
    while (this.sending || this.queue.length > 0) {
      if (!this.sending) void this.pump();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }
}
