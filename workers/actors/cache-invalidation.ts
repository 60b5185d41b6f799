// Cache invalidation fan-out: every edge replica drops the months named by schedule.changed (every
// month for a change marked `everyMonth`, such as the demo seed's), so a write on one replica, by
// the schedule writer in the actors role or by the seed command reaches all caches. Each running
// service is its own consumer group and starts from the newest message: a replica with an empty
// cache has nothing stale to drop. The group is deleted when the service stops.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { TOPICS, type Bus, type BusMessage, type Subscription } from '../../shared/bus/bus.ts';
import type { ScheduleChangedMessage } from '../../shared/schedules/schedule-changes.ts';
import type { Services } from '../../shared/services.ts';

/** One group per running service (not per process: a test may run two services in one process). */
export function cacheInvalidationGroup(): string {
  return `cache-invalidation-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export function startCacheInvalidation(s: Services, bus: Bus): Promise<Subscription> {
  const drop = (messages: BusMessage[]) => {
    for (const message of messages) {
      const change = message.value as ScheduleChangedMessage;
      if (change.everyMonth) s.monthlyCache.invalidateAll();
      else for (const { year, month } of change.months) s.monthlyCache.invalidate(year, month);
    }
    // Suggestions: this replica's analysis threads look for new titles on their next task.
    s.analysis.schedulesChanged();
    // The live calendar reads the change log now rather than at its next poll.
    s.live?.wake();
  };
  // A run of messages is dropped at once: one offset commit per run, not one per message.
  return bus.subscribe(cacheInvalidationGroup(), [TOPICS.scheduleChanged], async (message) => drop([message]), {
    batch: async (messages) => drop(messages),
    maxAttempts: 1,
    startAt: 'latest',
    ephemeral: true,
  });
}
