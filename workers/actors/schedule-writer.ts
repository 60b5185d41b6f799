// The schedule writer actor: turns collected videos and posts into schedules. Idempotent (upsert on
// the video id / post id), so at-least-once delivery stores nothing twice. A run of messages is
// written set-based in one transaction; the bus falls back to one message at a time if it fails.
import { TOPICS, type Bus, type Subscription } from '../../shared/bus/bus.ts';
import { writeCollectedRun } from '../../shared/schedules/schedule-writes.ts';
import type { Services } from '../../shared/services.ts';

export const SCHEDULE_WRITER_GROUP = 'schedule-writer';

export function startScheduleWriter(s: Services, bus: Bus): Promise<Subscription> {
  // A run of the bus is one partition of one topic.
  return bus.subscribe(SCHEDULE_WRITER_GROUP, [TOPICS.videoCollected, TOPICS.postCollected], (message) => writeCollectedRun(s, message.topic, [message.value]), {
    batch: async (messages) => {
      const topic = messages[0]!.topic;
      if (messages.some((m) => m.topic !== topic)) throw new Error('a run mixes topics'); // handled one by one instead
      await writeCollectedRun(s, topic, messages.map((m) => m.value));
    },
  });
}
