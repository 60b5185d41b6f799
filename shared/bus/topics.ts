// The one table of bus topics: their names for the code, and the partitions and retention that the
// Kafka bus creates a missing topic with. k8s/base/kafka.yaml declares the same KafkaTopics, and
// test/k8s.test.ts checks that both agree.

export const TOPICS = {
  videoCollected: 'bot.video.collected',
  postCollected: 'bot.post.collected',
  scheduleChanged: 'schedule.changed',
} as const;

export const dlqTopic = (topic: string) => `${topic}.dlq`;

export interface TopicSpec {
  partitions: number;
  retentionMs: number;
}

const DAY_MS = 86_400_000;

/**
 * Partitions are sized for the actors scale-out, not for throughput (the key picks the partition;
 * adding partitions later moves keys). Kept 7 days: long enough to replay after an outage over a
 * long weekend; PostgreSQL and its outbox are the source of truth.
 */
export const TOPIC_TABLE: Readonly<Record<string, TopicSpec>> = {
  [TOPICS.videoCollected]: { partitions: 3, retentionMs: 7 * DAY_MS },
  [TOPICS.postCollected]: { partitions: 3, retentionMs: 7 * DAY_MS },
  [TOPICS.scheduleChanged]: { partitions: 6, retentionMs: 7 * DAY_MS },
};

/** Dead letters: one partition (read in order by hand, tiny volume), kept 30 days for a human to notice. */
export const DLQ_SPEC: TopicSpec = { partitions: 1, retentionMs: 30 * DAY_MS };

/** Topics outside the table (tests, tools): the collected topics' shape. */
export const DEFAULT_SPEC: TopicSpec = { partitions: 3, retentionMs: 7 * DAY_MS };

/** Partitions and retention of a topic or of a dead-letter topic. */
export function topicSpec(topic: string): TopicSpec {
  if (topic.endsWith('.dlq')) return DLQ_SPEC;
  return TOPIC_TABLE[topic] ?? DEFAULT_SPEC;
}
