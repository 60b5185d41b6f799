// The schedule writer actor: turns collected videos and posts into schedules. Idempotent (upsert on
// the video id / post id), so at-least-once delivery stores nothing twice.
import { TOPICS, type Bus, type Subscription } from '../../shared/bus/bus.ts';
import { writePostSchedule, writeVideoSchedule, type PostCollected, type VideoCollected } from '../../shared/collected.ts';
import type { Services } from '../../shared/services.ts';

export const SCHEDULE_WRITER_GROUP = 'schedule-writer';

export function startScheduleWriter(s: Services, bus: Bus): Promise<Subscription> {
  return bus.subscribe(SCHEDULE_WRITER_GROUP, [TOPICS.videoCollected, TOPICS.postCollected], async (message) => {
    const result = message.topic === TOPICS.videoCollected
      ? await writeVideoSchedule(s.db, message.value as VideoCollected)
      : await writePostSchedule(s.db, message.value as PostCollected);
    if (result) {
      for (const date of result.change.dates) s.monthlyCache.invalidate(Number(date.slice(0, 4)), Number(date.slice(5, 7)));
      s.analysis.schedulesChanged();
    }
  });
}
