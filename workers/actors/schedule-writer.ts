// The schedule writer actor: turns collected videos and posts into schedules. Idempotent (upsert on
// the video id / post id), so at-least-once delivery stores nothing twice. A run of messages is
// written set-based in one transaction; the bus falls back to one message at a time if it fails.
import { TOPICS, type Bus, type BusMessage, type Subscription } from '../../shared/bus/bus.ts';
import { writePostSchedules, writeVideoSchedules, type PostCollected, type VideoCollected, type WriteResult } from '../../shared/collected.ts';
import type { Services } from '../../shared/services.ts';

export const SCHEDULE_WRITER_GROUP = 'schedule-writer';

export function startScheduleWriter(s: Services, bus: Bus): Promise<Subscription> {
  /** Messages of one topic; a run of the bus is one partition of one topic. */
  const write = (topic: string, messages: BusMessage[]) =>
    topic === TOPICS.videoCollected
      ? writeVideoSchedules(s.db, messages.map((m) => m.value as VideoCollected))
      : writePostSchedules(s.db, messages.map((m) => m.value as PostCollected));
  const written = (results: Array<WriteResult | null>) => {
    for (const result of results) {
      if (!result) continue;
      for (const date of result.change.dates) s.monthlyCache.invalidate(Number(date.slice(0, 4)), Number(date.slice(5, 7)));
    }
    s.analysis.schedulesChanged();
  };
  return bus.subscribe(SCHEDULE_WRITER_GROUP, [TOPICS.videoCollected, TOPICS.postCollected], async (message) => written(await write(message.topic, [message])), {
    batch: async (messages) => {
      const topic = messages[0]!.topic;
      if (messages.some((m) => m.topic !== topic)) throw new Error('a run mixes topics'); // handled one by one instead
      written(await write(topic, messages));
    },
  });
}
