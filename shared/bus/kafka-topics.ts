// Topics and committed offsets through the Kafka admin client: creating the topics that do not
// exist yet (never broker auto-creation), forgetting them when one vanished (a fresh admin client
// then, as the old one keeps asking for the vanished topic's metadata), the end offsets a 'latest'
// group starts from, and a group's lag.
import type { Admin, Kafka } from 'kafkajs';
import type { Logger } from '../runtime/logger.ts';
import type { KafkaCounts } from './kafka-connection.ts';
import { topicSpec } from './topics.ts';

export class KafkaTopics {
  private readonly known = new Set<string>();
  /** Replaced after an unknown-topic error: kafkajs keeps asking for the metadata of every topic it once saw. */
  private adminStale = false;
  private adminReplacing: Promise<Admin> | null = null;

  constructor(
    private readonly kafka: Kafka,
    private admin: Admin,
    private readonly logger: Logger,
    private readonly counts: KafkaCounts,
    private readonly replicationFactor: number,
  ) {}

  /** The admin client, a fresh one after a topic vanished (the old one's metadata requests keep failing). */
  async adminClient(): Promise<Admin> {
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
  async ensure(topics: string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((topic) => !this.known.has(topic));
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
            replicationFactor: this.replicationFactor,
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
    for (const topic of missing) this.known.add(topic);
  }

  /** After an unknown-topic error: forget what exists, so the next call re-creates what vanished. */
  forget(error: unknown, context: string): void {
    this.known.clear();
    this.adminStale = true;
    this.counts.topic_cache_resets++;
    this.logger.warn({ err: error, context }, 'a topic is missing: the topic cache is cleared and missing topics are created again');
  }

  /** For partitions where the group has no committed offset: the end offset now. */
  async uncommittedEnds(group: string, topics: string[]): Promise<Map<string, bigint>> {
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

  /** Messages not yet committed by the group, per topic (of `topics`, or every topic it committed on). */
  async lag(group: string, topics: string[]): Promise<Record<string, number>> {
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

  disconnect(): Promise<void> {
    return this.admin.disconnect();
  }
}
