// The search indexer actor: for each schedule.changed entry, re-reads the schedule and updates or
// removes its index entry. Re-reading makes it idempotent and order-insensitive, so a run of
// messages is one read and one bulk write.
import { TOPICS, type Bus, type Subscription } from '../../shared/bus/bus.ts';
import type { ScheduleChangedMessage } from '../../shared/schedules/schedule-changes.ts';
import { syncSchedules } from '../../shared/search/sync.ts';
import type { Services } from '../../shared/services.ts';

export const SEARCH_INDEXER_GROUP = 'search-indexer';

export function startSearchIndexer(s: Services, bus: Bus): Promise<Subscription> {
  return bus.subscribe(SEARCH_INDEXER_GROUP, [TOPICS.scheduleChanged], async (message) => {
    await syncSchedules(s.db, s.search, [(message.value as ScheduleChangedMessage).scheduleId]);
  }, {
    batch: async (messages) => {
      await syncSchedules(s.db, s.search, [...new Set(messages.map((m) => (m.value as ScheduleChangedMessage).scheduleId))]);
    },
  });
}
